//! The effects that take more than a line to start, one method each; `Dispatcher::run` (in
//! `mod.rs`) is the table that hands each effect to its method.

use super::*;

impl Dispatcher {
    pub(super) fn fetch_image(&self, src: String) {
        let (c, dir) = (self.client.clone(), self.images.clone());
        self.spawn(async move {
            let result = images::fetch(&c, dir.as_deref(), &src).await;
            Msg::Image { src, result }
        });
    }

    pub(super) fn search_archive(&self, narrow: Narrow, terms: Vec<NarrowTerm>, limit: u32, epoch: u64) {
        let (Some(archive), tx) = (self.archive.clone(), self.tx.clone()) else { return };
        tokio::task::spawn_blocking(move || {
            let messages = archive.search(&terms, limit);
            let _ = tx.send(Msg::ArchiveHits { narrow, epoch, messages });
        });
    }

    pub(super) fn backfill(&mut self, targets: Vec<crate::app::session::BackfillTarget>) {
        self.backfill.take().inspect(JoinHandle::abort);
        let (c, archive, tx) = (self.client.clone(), self.archive.clone(), self.tx.clone());
        self.backfill = Some(tokio::spawn(backfill::run(c, archive, targets, self.backfill_page, tx)));
    }

    pub(super) fn read_users(&self, epoch: u64, roster: Box<crate::app::roster::Roster>) {
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let roll = Box::new(roster.read());
            let _ = tx.send(Msg::Users { epoch, roll });
        });
    }

    pub(super) fn save_cache(&self, snapshot: Box<crate::app::session::Snapshot>) {
        let keeper = self.cache.clone();
        if keeper.path().is_none() {
            return;
        }
        let (site, email) = (self.client.site().to_owned(), self.client.email().to_owned());
        tokio::task::spawn_blocking(move || {
            keeper.keep(&site, &email, &snapshot);
            drop(snapshot);
            crate::heap::trim();
        });
    }

    pub(super) fn jump_to_date(&self, narrow: Narrow, terms: Vec<NarrowTerm>, date: String, epoch: u64) {
        let (c, archive) = (self.client.clone(), self.archive.clone());
        self.spawn(async move {
            let mut q = GetMessages::around(Anchor::Date, PAGE_AROUND, PAGE_AROUND).narrow(terms);
            q.anchor_date = Some(date);
            q.apply_markdown = Some(true);
            let asked = std::time::Instant::now();
            match c.get_messages(&q).await {
                Ok(resp) => {
                    archive.inspect(|a| a.page(&q.narrow, &Anchored::of(&q), &resp, asked));
                    Msg::Messages { narrow, resp: Box::new(resp), older: false, epoch }
                }
                Err(error) => Msg::MessagesFailed { narrow, error, older: false, epoch },
            }
        })
    }

    pub(super) fn open_url(&self, url: String, download: bool) {
        let (c, tx, dir) = (self.client.clone(), self.tx.clone(), self.downloads.clone());
        let openers = self.openers.clone().unwrap_or_else(open::Openers::from_env);
        tokio::spawn(async move {
            let result = open::open_url(&c, &url, download, dir, openers).await;
            let _ = tx.send(done(Job::Open { download }, result));
        });
    }

    pub(super) fn upload(&self, path: String, target: crate::app::Target, max_bytes: Option<u64>) {
        let (c, tx) = (self.client.clone(), self.tx.clone());
        tokio::spawn(async move {
            let result = upload(&c, &path, max_bytes, &tx).await;
            let _ = tx.send(done(Job::Upload { target }, result));
        });
    }

    pub(super) fn list_folder(&self, dir: String) {
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let entries = crate::files::list_folder(&dir).ok();
            let _ = tx.send(Msg::Listed { dir, entries });
        });
    }

    pub(super) fn dump_state(&self, path: Option<String>, contents: String) {
        let path = path.map(std::path::PathBuf::from).unwrap_or_else(|| {
            std::env::temp_dir().join(format!("topicterm-state-{}.json", std::process::id()))
        });
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let written = tempfile::NamedTempFile::new_in(
                path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new(".")),
            )
            .and_then(|mut f| {
                std::io::Write::write_all(&mut f, contents.as_bytes())?;
                f.persist(&path).map_err(|e| e.error)
            });
            let _ = tx.send(done(
                Job::DumpState,
                match written {
                    Ok(_) => Ok(Answer::Written(path)),
                    Err(error) => Err(Failure::File { path, error }),
                },
            ));
        });
    }

    /// Deleting is idempotent: retried through faults; "no such draft" is as good as done.
    /// Unconfirmed, it is asked again at the next start (the app keeps it on disk).
    pub(super) fn delete_server_draft(&self, id: i64) {
        let c = self.client.clone();
        self.spawn(async move {
            match with_retries(|| c.delete_draft(id)).await {
                Ok(_) => Msg::ServerDraftGone(id),
                Err(ApiError::Server(e)) if e.status == 404 => Msg::ServerDraftGone(id),
                Err(e) => {
                    tracing::debug!("server draft {id} not deleted: {e}");
                    done(Job::Quiet, Ok(Answer::Nothing))
                }
            }
        })
    }

    pub(super) fn send(
        &self,
        local_id: String,
        message: crate::api::OutgoingMessage,
        verify: Option<Verify>,
    ) {
        let c = self.client.clone();
        self.spawn(async move {
            if let Some(v) = verify {
                match find_earlier_send(&c, &message.content, &v).await {
                    Ok(Some(id)) => return Msg::Sent { local_id, result: Ok(id) },
                    Ok(None) => {}
                    // Not knowing whether it arrived, do not send it again yet.
                    Err(e) => return Msg::Sent { local_id, result: Err(send_failure(e, true)) },
                }
            }
            let result = c.send_message(&message).await.map(|r| r.id).map_err(|e| send_failure(e, false));
            Msg::Sent { local_id, result }
        })
    }

    pub(super) fn edit_typing(&self, message_id: MessageId, start: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            let op = if start { TypingOp::Start } else { TypingOp::Stop };
            // A failed typing notice is not worth the user's attention.
            if let Err(e) = c.set_edit_typing(message_id, op).await {
                tracing::debug!("edit typing notice failed: {e}");
            }
            done(Job::Quiet, Ok(Answer::Nothing))
        })
    }

    /// With `--low-bandwidth`, messages read are told in batches.
    pub(super) fn mark_read_batched(&mut self, ids: Vec<MessageId>) {
        let Some(batch) = self.reads.add(ids) else { return };
        let (c, tx) = (self.client.clone(), self.tx.clone());
        tokio::spawn(async move {
            tokio::time::sleep(reads::BATCH_DELAY).await;
            let ids = batch.take();
            if !ids.is_empty() {
                let result = with_retries(|| c.update_message_flags(&ids, true, Flag::Read)).await;
                let _ = tx.send(finished(Job::Flags, result));
            }
        });
    }

    pub(super) fn count_topic(&self, channel: ChannelId, topic: String) {
        let c = self.client.clone();
        self.spawn(async move {
            let terms = vec![NarrowTerm::new("channel", channel), NarrowTerm::new("topic", topic.as_str())];
            let mut q = GetMessages::around(Anchor::Newest, 1000, 0).narrow(terms);
            q.apply_markdown = Some(false);
            let result = c.get_messages(&q).await.map(|r| (r.messages.len(), r.found_oldest));
            Msg::TopicCounted { channel, topic, result }
        })
    }

    pub(super) fn delete_topic(&self, channel: ChannelId, topic: String, name: String) {
        let c = self.client.clone();
        self.spawn(async move {
            let mut result = Ok(());
            // A large topic goes in batches; a server that never finishes is not asked forever.
            for _ in 0..50 {
                match c.delete_topic(channel, &topic).await {
                    Ok(r) if r.complete == Some(false) => continue,
                    Ok(_) => break,
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            finished(Job::DeleteTopic { name }, result)
        })
    }

    pub(super) fn typing(&self, to: crate::app::Target, start: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            let op = if start { TypingOp::Start } else { TypingOp::Stop };
            let to = match to {
                crate::app::Target::Channel { id, topic } => TypingTo::Channel { stream_id: id, topic },
                crate::app::Target::Dm(users) => TypingTo::Direct(users),
            };
            // A lost typing notice is not worth the user's attention.
            if let Err(e) = c.set_typing_status(op, &to).await {
                tracing::debug!("typing notice failed: {e}");
            }
            done(Job::Quiet, Ok(Answer::Nothing))
        })
    }

    /// Each of the account's files goes (its archive, last session, drafts and outbox), each
    /// writer told to keep nothing more; a failure is said after the others are done.
    pub(super) fn forget(&self) {
        let archive = self.archive.clone();
        let drafts = self.drafts.as_ref().map(drafts::Writer::forgetter);
        let (cache, site, email) =
            (self.cache.clone(), self.client.site().to_owned(), self.client.email().to_owned());
        self.spawn(async move {
            let forgot = tokio::task::spawn_blocking(move || {
                let archive = archive.map_or(Ok(None), |a| a.forget()).map(drop);
                let drafts = drafts.map_or(Ok(0), drafts::Forgetter::forget).map(drop);
                let cache = cache.forget(&site, &email).map(drop);
                archive.and(drafts).and(cache)
            })
            .await
            .unwrap_or_else(|e| Err((Default::default(), std::io::Error::other(e.to_string()))));
            done(
                Job::Forget,
                forgot.map(|()| Answer::Nothing).map_err(|(path, error)| Failure::File { path, error }),
            )
        })
    }

    pub(super) fn react(&self, message_id: MessageId, emoji: EmojiSpec, add: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            let r = if add {
                c.add_reaction(message_id, &emoji).await
            } else {
                c.remove_reaction(message_id, &emoji).await
            };
            finished(Job::React { add }, r)
        })
    }

    pub(super) fn fetch_raw(&self, message_id: MessageId, edit: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            let result =
                c.get_message(message_id, false).await.map(|r| r.raw_content.unwrap_or(r.message.content));
            Msg::Raw { message_id, edit, result }
        })
    }

    pub(super) fn ping(&self, active: bool, last_update_id: i64) {
        let (c, low_bandwidth) = (self.client.clone(), self.low_bandwidth);
        self.spawn(async move {
            let mut u =
                PresenceUpdate::new(if active { PresenceStatus::Active } else { PresenceStatus::Idle });
            u.last_update_id = Some(last_update_id);
            u.new_user_input = Some(active);
            // Others' presence is not asked for: the answer is `{"result": "success"}`.
            u.ping_only = low_bandwidth.then_some(true);
            match c.update_presence(&u).await {
                Ok(r) => Msg::Presence(Box::new(r)),
                // Presence is best effort; connection trouble shows elsewhere.
                Err(e) => {
                    tracing::debug!("presence ping failed: {e}");
                    done(Job::Quiet, Ok(Answer::Nothing))
                }
            }
        })
    }

    pub(super) fn save_draft(&self, key: String, text: String) {
        if let Some(w) = &self.drafts {
            w.save(key, text);
        }
    }

    pub(super) fn set_policy(&self, channel: ChannelId, topic: String, policy: VisibilityPolicy) {
        let c = self.client.clone();
        self.spawn(async move {
            let r = c.update_user_topic(channel, &topic, policy).await;
            finished(Job::SetPolicy { channel, topic, policy }, r)
        })
    }

    pub(super) fn mark_topic_read(&self, channel: ChannelId, topic: String) {
        let c = self.client.clone();
        self.spawn(async move { finished(Job::MarkTopicRead, c.mark_topic_as_read(channel, &topic).await) })
    }

    pub(super) fn mark_unread_from(&self, terms: Vec<NarrowTerm>, anchor: MessageId) {
        let c = self.client.clone();
        self.spawn(async move {
            finished(Job::MarkUnread, flag_narrow(&c, &terms, Anchor::Id(anchor), false).await)
        })
    }

    pub(super) fn mark_channel_read(&self, channel: ChannelId, name: String) {
        let c = self.client.clone();
        self.spawn(async move {
            let narrow = [NarrowTerm::new("channel", channel), NarrowTerm::new("is", "unread")];
            finished(Job::MarkChannelRead { name }, mark_read_in(&c, &narrow).await)
        })
    }

    pub(super) fn set_channel_muted(&self, channel: ChannelId, name: String, muted: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            let r = c.update_subscription_settings(&[(channel, "is_muted", muted.into())]).await;
            finished(Job::SetChannelMuted { name, muted }, r)
        })
    }

    pub(super) fn fetch_topics(&self, channel: ChannelId) {
        let c = self.client.clone();
        self.spawn(async move {
            match c.get_topics(channel, true).await {
                Ok(r) => Msg::Topics { channel, topics: r.topics },
                Err(e) => finished(Job::FetchTopics(channel), Err::<(), _>(e)),
            }
        })
    }

    pub(super) fn push_draft(&self, key: String, id: Option<i64>, draft: Draft) {
        let c = self.client.clone();
        self.spawn(async move {
            let content = draft.content.clone();
            Msg::DraftPushed { key, content, result: super::push_draft(&c, id, &draft).await }
        })
    }

    pub(super) fn edit(&self, message_id: MessageId, content: String) {
        let c = self.client.clone();
        self.spawn(async move {
            let edit = MessageEdit { content: Some(content), ..Default::default() };
            Msg::Edited(c.update_message(message_id, &edit).await.map(|_| message_id))
        })
    }

    pub(super) fn mark_read(&self, ids: Vec<MessageId>) {
        let c = self.client.clone();
        self.spawn(async move {
            finished(Job::Flags, with_retries(|| c.update_message_flags(&ids, true, Flag::Read)).await)
        })
    }

    pub(super) fn star(&self, id: MessageId, add: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            finished(Job::Star { add }, c.update_message_flags(&[id], add, Flag::Starred).await)
        })
    }

    pub(super) fn hide_previews(&self, id: MessageId, hide: bool) {
        let c = self.client.clone();
        self.spawn(async move {
            let r = c.update_message_flags(&[id], hide, Flag::HideLinkPreviews).await;
            finished(Job::HidePreviews { hide }, r)
        })
    }

    pub(super) fn mark_all_read(&self) {
        let c = self.client.clone();
        self.spawn(async move {
            finished(Job::MarkAllRead, mark_read_in(&c, &[NarrowTerm::new("is", "unread")]).await)
        })
    }

    pub(super) fn read_receipts(&self, message_id: MessageId) {
        let c = self.client.clone();
        self.spawn(async move {
            let result = c.read_receipts(message_id).await.map(|r| r.user_ids);
            Msg::ReadReceipts { message_id, result }
        })
    }

    pub(super) fn history(&self, message_id: MessageId) {
        let c = self.client.clone();
        self.spawn(async move {
            let result = c.get_message_history(message_id, true).await.map(|r| r.message_history);
            Msg::History { message_id, result }
        })
    }

    pub(super) fn poll_events(&mut self, queue: poll::Queue) {
        if let Some(p) = self.poller.take() {
            p.abort();
        }
        let (c, tx, archive) = (self.client.clone(), self.tx.clone(), self.archive.clone());
        self.poller = Some(tokio::spawn(poll::poll_events(c, tx, archive, queue)));
    }
}
