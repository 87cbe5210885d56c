//! Several organizations in one window: what each organization's state knows of the others
//! (their rows: name, unread count, whether it is the one on screen), and which one a switch
//! goes to. The main loop keeps one [`super::State`] per organization, makes each one's row
//! with [`super::org_row`] and tells each of them the rows with [`super::Msg::Organizations`]; with one organization open the rows are empty
//! and nothing of this shows.

/// One organization as the others show it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrgRow {
    /// The account's name (`topicterm accounts`).
    pub name: String,
    /// Unread messages outside muted channels and topics.
    pub unread: usize,
    /// Unread messages that mention the user.
    pub mentions: usize,
    /// The server cannot be reached.
    pub offline: bool,
    /// Closed, and why (the server refused the account): not switched to any more.
    pub closed: Option<String>,
    /// Who the user is there (their full name), once known.
    pub user: String,
    /// The organization's own name (`realm_name`), once known.
    pub realm: String,
    /// The user chose the account's name (it is not the server's address, `127.0.0.1-19991`).
    pub chosen: bool,
}

/// The organizations open in the window, as one of them knows them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Orgs {
    /// Every organization open, in the order they opened (the default account first); empty
    /// when only one is.
    pub rows: Vec<OrgRow>,
    /// The one on screen.
    pub active: usize,
    /// This state's own organization.
    pub index: usize,
}

impl Orgs {
    /// Several organizations are open.
    pub fn several(&self) -> bool {
        self.rows.len() > 1
    }

    /// This organization is the one on screen (always, with one open).
    pub fn on_screen(&self) -> bool {
        !self.several() || self.active == self.index
    }

    /// This organization's name, when several are open.
    pub fn own_name(&self) -> Option<String> {
        self.several().then(|| self.label(self.index)).flatten()
    }

    /// What row `i` is called: the account's name where the user chose it, else the
    /// organization's own once known — with the account's name beside it where another row
    /// would read the same.
    pub fn label(&self, i: usize) -> Option<String> {
        let r = self.rows.get(i)?;
        let realm = r.realm.trim();
        if r.chosen || realm.is_empty() {
            return Some(r.name.clone());
        }
        let shared = self.rows.iter().enumerate().any(|(k, o)| k != i && o.realm.trim() == realm);
        Some(if shared { format!("{realm} ({})", r.name) } else { realm.to_owned() })
    }

    /// Who the user is in this state's own organization, among several open.
    pub fn own_user(&self) -> Option<&str> {
        self.several()
            .then(|| self.rows.get(self.index).map(|r| r.user.as_str()))
            .flatten()
            .filter(|u| !u.is_empty())
    }
}

/// Where a switch goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrgSwitch {
    Next,
    Previous,
    To(usize),
}

/// The organization a switch from `active` lands on — a closed one too: its screen says how to
/// reopen it; `None` when it stays (one open, or `To` itself or a missing one).
pub fn switch_target(rows: &[OrgRow], active: usize, how: OrgSwitch) -> Option<usize> {
    let n = rows.len();
    let target = match how {
        OrgSwitch::To(i) => Some(i).filter(|&i| i < n),
        OrgSwitch::Next => (n > 1).then(|| (active + 1) % n),
        OrgSwitch::Previous => (n > 1).then(|| (active + n - 1) % n),
    };
    target.filter(|&i| i != active)
}

/// Where an organization's credentials come from: what the user fixes when the server refuses
/// them, and what is read again to reopen it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum AccountSource {
    /// An account of `topicterm accounts`, by name.
    Account(String),
    /// A zuliprc file (`-c`, or `~/.zuliprc`).
    Zuliprc(std::path::PathBuf),
    /// Given by the program itself (the demo): nothing for the user to fix.
    #[default]
    Given,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(closed: &[bool]) -> Vec<OrgRow> {
        closed
            .iter()
            .enumerate()
            .map(|(i, c)| OrgRow {
                name: format!("org{i}"),
                closed: c.then(|| "gone".into()),
                ..Default::default()
            })
            .collect()
    }

    #[test]
    fn switching_goes_round_closed_organizations_included() {
        let r = rows(&[false, false, false]);
        assert_eq!(switch_target(&r, 0, OrgSwitch::Next), Some(1));
        assert_eq!(switch_target(&r, 2, OrgSwitch::Next), Some(0));
        assert_eq!(switch_target(&r, 0, OrgSwitch::Previous), Some(2));
        assert_eq!(switch_target(&r, 1, OrgSwitch::To(2)), Some(2));
        assert_eq!(switch_target(&r, 1, OrgSwitch::To(1)), None);
        assert_eq!(switch_target(&r, 1, OrgSwitch::To(7)), None);
        // A closed one is shown with how to reopen it.
        let r = rows(&[false, true, false]);
        assert_eq!(switch_target(&r, 0, OrgSwitch::Next), Some(1));
        assert_eq!(switch_target(&r, 2, OrgSwitch::Previous), Some(1));
        assert_eq!(switch_target(&r, 0, OrgSwitch::To(1)), Some(1));
        assert_eq!(switch_target(&rows(&[false, true]), 0, OrgSwitch::Next), Some(1));
        assert_eq!(switch_target(&rows(&[false]), 0, OrgSwitch::Next), None);
        assert_eq!(switch_target(&[], 0, OrgSwitch::Previous), None);
    }

    #[test]
    fn one_organization_is_always_on_screen_and_unnamed() {
        let one = Orgs::default();
        assert!(one.on_screen() && one.own_name().is_none());
        let two = Orgs { rows: rows(&[false, false]), active: 0, index: 1 };
        assert!(!two.on_screen());
        assert_eq!(two.own_name(), Some("org1".to_owned()));
    }

    #[test]
    fn a_row_is_the_organizations_name_unless_the_user_named_the_account() {
        let row = |name: &str, realm: &str, chosen| OrgRow {
            name: name.into(),
            realm: realm.into(),
            chosen,
            ..Default::default()
        };
        let orgs = Orgs {
            rows: vec![
                row("127.0.0.1-19991", "Acme", false),
                row("work", "Acme", true),
                row("chat.example.com", "", false),
            ],
            ..Default::default()
        };
        assert_eq!(orgs.label(0).as_deref(), Some("Acme (127.0.0.1-19991)"), "another row reads Acme");
        assert_eq!(orgs.label(1).as_deref(), Some("work"));
        assert_eq!(orgs.label(2).as_deref(), Some("chat.example.com"), "not known yet");
        let orgs =
            Orgs { rows: vec![row("a-1", "Acme", false), row("b-2", "Globex", false)], ..Default::default() };
        assert_eq!((orgs.label(0), orgs.label(1)), (Some("Acme".into()), Some("Globex".into())));
    }
}
