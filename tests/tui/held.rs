//! The bound on messages held (`max_messages`): past it the views furthest from the screen are let
//! go and loaded anew when opened; the unread state is the server's whatever is held.

use crate::harness::App;
use topicterm::api::{Anchor, GetMessages, NarrowTerm};
use topicterm::app::Narrow;

/// The IDs of the member's unread messages, as the server has them.
async fn server_unread(app: &App) -> Vec<i64> {
    let q = GetMessages::around(Anchor::Oldest, 0, 5000).narrow(vec![NarrowTerm::new("is", "unread")]);
    app.client.get_messages(&q).await.expect("unread messages").messages.iter().map(|m| m.id).collect()
}

#[tokio::test]
async fn past_the_bound_views_are_let_go_and_loaded_again_and_unread_counts_stay() {
    let mut app = App::start("member").await;
    app.st.settings.max_messages = 40;
    let before: Vec<i64> = {
        let mut v: Vec<i64> = app.st.data.unread.ids().collect();
        v.sort_unstable();
        v
    };
    assert_eq!(before, server_unread(&app).await);
    let channels: Vec<i64> =
        ["general", "engineering", "random", "design"].iter().map(|c| app.channel_id(c)).collect();
    for c in &channels {
        app.open(Narrow::Channel(*c)).await;
        assert!(app.st.data.views[&Narrow::Channel(*c)].is_loaded(), "#{c} shows");
        assert!(app.st.data.messages.len() <= 40, "held {} > 40", app.st.data.messages.len());
    }
    // The first views were let go: not held, but opened again they load.
    let first = Narrow::Channel(channels[0]);
    assert!(!app.st.data.views.contains(&first), "the view furthest from the screen went");
    app.open(first.clone()).await;
    let v = &app.st.data.views[&first];
    assert!(v.is_loaded() && !v.ids().is_empty(), "{v:?}");
    // Nothing was marked read or unread by letting go: the counts are the server's.
    let mut held: Vec<i64> = app.st.data.unread.ids().collect();
    held.sort_unstable();
    assert_eq!(held, server_unread(&app).await);
    // (Drawn, what the screen shows is read, as the user's setting says: after the counts.)
    let s = app.screen(80, 24);
    assert!(s.contains("#general"), "{s}");
}
