//! Desktop notifications through `notify-rust`: the freedesktop notification service over
//! D-Bus (pure-Rust zbus) on Linux and the BSDs, Notification Center on macOS, toasts on
//! Windows. Shown off the UI task, so a slow or absent service never holds a frame. Where none
//! is shown the organization is answered `Msg::NotificationUnshown` (it rings the bell) and the
//! reason goes to the log, once. Over D-Bus a click on the notification (its "default" action)
//! is waited for, and answered `Msg::NotificationClicked`.

use crate::app::{Clicked, Msg};
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a notification's outcome goes: its organization's answers (a click, or that none
/// was shown). `outside` names it for every notifier.
pub type Answers = tokio::sync::mpsc::UnboundedSender<Msg>;

/// Whether a failure has been logged at `warn` (the later ones go to `debug`).
static TOLD: AtomicBool = AtomicBool::new(false);

/// No notification was shown, for `reason`: logged (once at `warn`), and the organization told,
/// so that it rings the bell.
pub fn unshown(reason: &dyn std::fmt::Display, answers: &Answers) {
    if TOLD.swap(true, Ordering::SeqCst) {
        tracing::debug!("no desktop notification: {reason}; the bell rang");
    } else {
        tracing::warn!("no desktop notification: {reason}; the terminal bell rings instead");
    }
    let _ = answers.send(Msg::NotificationUnshown);
}

fn notification(title: &str, body: &str) -> notify_rust::Notification {
    let mut n = notify_rust::Notification::new();
    n.appname("topicterm").summary(title).body(body);
    n
}

/// Whether the notification service reads the body as markup (`body-markup`: a subset of HTML,
/// links and images included), asked once. Where it does, the body — server text — is escaped,
/// so a message's `<b>` or `<img src=…>` is shown as written and nothing in it is fetched.
#[cfg(all(unix, not(target_os = "macos")))]
async fn body_is_markup() -> bool {
    static MARKUP: tokio::sync::OnceCell<bool> = tokio::sync::OnceCell::const_new();
    *MARKUP
        .get_or_init(|| async {
            let ask = tokio::task::spawn_blocking(notify_rust::get_capabilities);
            let caps = tokio::time::timeout(std::time::Duration::from_secs(10), ask).await;
            // Not known: escaped (at worst `&lt;` shows where `<` was meant).
            !matches!(caps, Ok(Ok(Ok(c))) if !c.iter().any(|x| x == "body-markup"))
        })
        .await
}

/// Show a notification, on a task of its own.
#[cfg(all(unix, not(target_os = "macos")))]
pub fn show(title: &str, body: &str, clicked: Clicked, answers: &Answers) {
    use std::time::Duration;
    let (title, body) = (title.to_owned(), body.to_owned());
    let answers = answers.clone();
    tokio::spawn(async move {
        let body = if body_is_markup().await { crate::content::escape_html(&body) } else { body };
        let mut n = notification(&title, &body);
        // The action a service invokes when the notification itself is clicked.
        n.action("default", "Open");
        // A bus that never answers (activation that hangs) is no service either.
        let handle = match tokio::time::timeout(Duration::from_secs(10), n.show_async()).await {
            Ok(Ok(handle)) => handle,
            Ok(Err(e)) => return unshown(&e, &answers),
            Err(_) => return unshown(&"the notification service did not answer within 10 s", &answers),
        };
        // Each wait holds a connection to the bus: a bounded number, each for a bounded time.
        let Some(_slot) = Waiting::take() else { return };
        let wait = handle.wait_for_action_async(|response| {
            if response.is_default_action() {
                let _ = answers.send(Msg::NotificationClicked(clicked));
            }
        });
        let _ = tokio::time::timeout(WAIT_AT_MOST, wait).await;
    });
}

/// How long a click is waited for.
#[cfg(all(unix, not(target_os = "macos")))]
const WAIT_AT_MOST: std::time::Duration = std::time::Duration::from_secs(3600);

/// One of the few clicks waited for at once; given back when dropped.
#[cfg(all(unix, not(target_os = "macos")))]
struct Waiting;

#[cfg(all(unix, not(target_os = "macos")))]
static WAITING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[cfg(all(unix, not(target_os = "macos")))]
impl Waiting {
    const MAX: usize = 16;

    fn take() -> Option<Waiting> {
        let before = WAITING.fetch_add(1, Ordering::SeqCst);
        let slot = Waiting;
        (before < Self::MAX).then_some(slot)
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
impl Drop for Waiting {
    fn drop(&mut self) {
        WAITING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Show a notification, on a blocking thread (macOS and Windows show it synchronously; a
/// click there is the platform's to handle: it brings the terminal forward where it can).
#[cfg(not(all(unix, not(target_os = "macos"))))]
pub fn show(title: &str, body: &str, _clicked: Clicked, answers: &Answers) {
    let n = notification(title, body);
    let answers = answers.clone();
    tokio::task::spawn_blocking(move || {
        if let Err(e) = n.show() {
            unshown(&e, &answers);
        }
    });
}
