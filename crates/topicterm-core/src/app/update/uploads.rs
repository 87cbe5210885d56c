//! The user's uploaded files (`:uploads`): listed newest first with the conversations of the
//! messages that link to them, kept current by `attachment` events while the list is open.
//! Its keys are in `lists_keys.rs`; what the user reads about the results, in `answers.rs`.

use super::prelude::*;

/// `:uploads`: the list, filled when the server has answered.
pub(super) fn open(st: &mut State) -> Vec<Effect> {
    st.ui.popup = Some(Popup::Uploads { selected: 0, list: None });
    vec![Effect::Api(ApiCall::Uploads)]
}

/// The conversations of the messages that link to `files`: from the messages fetched with
/// the list, else from those held.
fn place(d: &Data, places: &mut HashMap<MessageId, Narrow>, files: &[Attachment]) {
    for &id in files.iter().flat_map(|f| &f.message_ids) {
        if !places.contains_key(&id)
            && let Some(m) = d.messages.get(&id)
        {
            places.insert(id, super::recent::conversation(d, m));
        }
    }
}

/// The server listed the files (and the messages that link to them).
pub(super) fn on_list(st: &mut State, mut files: Vec<Attachment>, used: Option<u64>, messages: Vec<Message>) {
    files.sort_by(|a, b| b.create_time.total_cmp(&a.create_time).then(b.id.cmp(&a.id)));
    let mut places: HashMap<MessageId, Narrow> = messages
        .into_iter()
        .map(Stored::from)
        .map(|m| (m.id, super::recent::conversation(&st.data, &m)))
        .collect();
    place(&st.data, &mut places, &files);
    let Some(Popup::Uploads { list, selected }) = &mut st.ui.popup else { return };
    *selected = (*selected).min(files.len().saturating_sub(1));
    let total = files.iter().map(|f| f.size).sum();
    *list = Some(UploadList { files, total, used, places });
}

/// An `attachment` event: a file uploaded, linked or unlinked, or deleted (here or
/// elsewhere); the space uploads take, as the server counts it now.
pub(super) fn on_event(st: &mut State, ev: AttachmentEvent) {
    let level = st.data.realm.level();
    let Some(Popup::Uploads { list: Some(list), selected }) = &mut st.ui.popup else { return };
    let chosen = list.files.get(*selected).map(|f| f.id);
    match ev.change {
        AttachmentChange::Add(file) | AttachmentChange::Update(file) => {
            let file = file.read_at(level);
            place(&st.data, &mut list.places, std::slice::from_ref(&file));
            match list.files.iter_mut().find(|f| f.id == file.id) {
                Some(old) => *old = file,
                None => list.files.insert(0, file),
            }
        }
        AttachmentChange::Remove(id) => list.files.retain(|f| f.id != id),
    }
    list.total = list.files.iter().map(|f| f.size).sum();
    list.used = ev.upload_space_used.or(list.used);
    // The selection stays on the file it was on, or where it was when that one went.
    let at = chosen.and_then(|id| list.files.iter().position(|f| f.id == id)).unwrap_or(*selected);
    *selected = at.min(list.files.len().saturating_sub(1));
}

/// The file selected in the list.
pub(super) fn selected(st: &State) -> Option<&Attachment> {
    let Some(Popup::Uploads { list: Some(list), selected }) = &st.ui.popup else { return None };
    list.files.get(*selected)
}

/// One of the files was deleted (the server said so): it leaves the list, and the space it
/// took is no longer counted (an `attachment` event, if one comes, says the server's count).
pub(super) fn deleted(st: &mut State, id: i64) {
    let Some(Popup::Uploads { list: Some(list), .. }) = &st.ui.popup else { return };
    let Some(size) = list.files.iter().find(|f| f.id == id).map(|f| f.size) else { return };
    let used = list.used.map(|u| u.saturating_sub(size));
    on_event(st, AttachmentEvent { change: AttachmentChange::Remove(id), upload_space_used: used });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(id: i64, size: u64, messages: &[i64]) -> Attachment {
        Attachment {
            id,
            name: format!("f{id}"),
            path_id: format!("2/{id}/f{id}"),
            size,
            create_time: id as f64,
            messages: vec![],
            message_ids: messages.to_vec(),
        }
    }

    fn list(st: &State) -> (Vec<i64>, u64, Option<u64>, usize) {
        let Some(Popup::Uploads { list: Some(l), selected }) = &st.ui.popup else { panic!("no list") };
        (l.files.iter().map(|f| f.id).collect(), l.total, l.used, *selected)
    }

    #[test]
    fn the_list_is_newest_first_and_events_and_deletions_keep_it_and_its_totals() {
        let mut st = State::default();
        // Not open: the answer has nowhere to go.
        on_list(&mut st, vec![file(1, 10, &[])], Some(10), vec![]);
        assert!(st.ui.popup.is_none());
        open(&mut st);
        on_list(&mut st, vec![file(1, 10, &[]), file(3, 30, &[]), file(2, 20, &[])], Some(100), vec![]);
        assert_eq!(list(&st), (vec![3, 2, 1], 60, Some(100), 0));
        // The selection stays on its file as others come and go.
        if let Some(Popup::Uploads { selected, .. }) = &mut st.ui.popup {
            *selected = 1;
        }
        let add = |f| AttachmentEvent { change: AttachmentChange::Add(f), upload_space_used: Some(104) };
        on_event(&mut st, add(file(4, 4, &[])));
        assert_eq!(list(&st), (vec![4, 3, 2, 1], 64, Some(104), 2));
        assert_eq!(selected(&st).map(|f| f.id), Some(2));
        // Deleted here: gone, its size no longer counted.
        deleted(&mut st, 2);
        assert_eq!(list(&st), (vec![4, 3, 1], 44, Some(84), 2));
        // Its event after: nothing more changes but the server's count.
        let gone = AttachmentEvent { change: AttachmentChange::Remove(2), upload_space_used: Some(80) };
        on_event(&mut st, gone);
        assert_eq!(list(&st), (vec![4, 3, 1], 44, Some(80), 2));
        // Linked from a message: replaced in place.
        let linked =
            AttachmentEvent { change: AttachmentChange::Update(file(3, 30, &[7])), upload_space_used: None };
        on_event(&mut st, linked);
        assert_eq!(list(&st), (vec![4, 3, 1], 44, Some(80), 2));
    }
}
