//! Request parameters: the query string and a form body merged, with typed getters that answer
//! malformed input with a 400 naming the parameter.

use super::error::{ApiErr, ApiResult};
use serde::de::DeserializeOwned;
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex};

/// Parameters of one request. Remembers which ones were read, so that the rest can be
/// reported as `ignored_parameters_unsupported`.
#[derive(Debug, Default)]
pub struct Params {
    map: HashMap<String, String>,
    used: Mutex<HashSet<String>>,
    /// Where the parameters answered as unknown are noted, with the request they came in.
    ignored: Option<(String, Arc<Mutex<VecDeque<String>>>)>,
}

/// How many ignored parameters a server keeps noted (`Shared::ignored_log`).
const IGNORED_LOG_LEN: usize = 256;

impl Params {
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Self {
        Params { map: pairs.into_iter().collect(), used: Mutex::default(), ignored: None }
    }

    /// These parameters, noting in `log` those answered as unknown (`request`: `METHOD /path`).
    pub fn noting_ignored(mut self, request: String, log: &Arc<Mutex<VecDeque<String>>>) -> Self {
        self.ignored = Some((request, log.clone()));
        self
    }

    /// Parameters that were sent but never read, noted where [`Params::noting_ignored`] says
    /// (a real server warns of each in its log).
    pub fn ignored(&self) -> Vec<String> {
        let unused = self.unused();
        if let Some((request, log)) = &self.ignored
            && !unused.is_empty()
        {
            let mut log = log.lock().unwrap_or_else(|p| p.into_inner());
            for name in &unused {
                if log.len() == IGNORED_LOG_LEN {
                    log.pop_front();
                }
                log.push_back(format!("{request} {name}"));
            }
        }
        unused
    }

    fn raw(&self, key: &str) -> Option<&str> {
        if let Ok(mut used) = self.used.lock() {
            used.insert(key.to_owned());
        }
        self.map.get(key).map(String::as_str)
    }

    pub fn has(&self, key: &str) -> bool {
        self.raw(key).is_some()
    }

    /// Parameters that were sent but never read.
    pub fn unused(&self) -> Vec<String> {
        let used = self.used.lock().map(|u| u.clone()).unwrap_or_default();
        let mut v: Vec<String> = self.map.keys().filter(|k| !used.contains(*k)).cloned().collect();
        v.sort();
        v
    }

    pub fn opt_str(&self, key: &str) -> Option<String> {
        self.raw(key).map(str::to_owned)
    }

    pub fn str(&self, key: &str) -> ApiResult<String> {
        self.opt_str(key).ok_or_else(|| ApiErr::missing(key))
    }

    pub fn opt_i64(&self, key: &str) -> ApiResult<Option<i64>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => {
                v.trim().parse::<i64>().map(Some).map_err(|_| ApiErr::bad(format!("{key} is not an integer")))
            }
        }
    }

    pub fn i64(&self, key: &str) -> ApiResult<i64> {
        self.opt_i64(key)?.ok_or_else(|| ApiErr::missing(key))
    }

    pub fn opt_bool(&self, key: &str) -> ApiResult<Option<bool>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => match v.trim() {
                "true" | "True" | "1" => Ok(Some(true)),
                "false" | "False" | "0" => Ok(Some(false)),
                _ => Err(ApiErr::bad(format!("{key} is not a boolean"))),
            },
        }
    }

    pub fn bool_or(&self, key: &str, default: bool) -> ApiResult<bool> {
        Ok(self.opt_bool(key)?.unwrap_or(default))
    }

    /// A JSON-encoded parameter.
    pub fn opt_json<T: DeserializeOwned>(&self, key: &str) -> ApiResult<Option<T>> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => serde_json::from_str(v)
                .map(Some)
                .map_err(|_| ApiErr::bad(format!("{key} is not valid JSON of the expected type"))),
        }
    }

    pub fn json<T: DeserializeOwned>(&self, key: &str) -> ApiResult<T> {
        self.opt_json(key)?.ok_or_else(|| ApiErr::missing(key))
    }
}

/// A path segment that must be an integer.
pub fn path_id(name: &str, raw: &str) -> ApiResult<i64> {
    raw.parse().map_err(|_| ApiErr::bad(format!("{name} is not an integer")))
}
