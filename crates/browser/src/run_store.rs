//! The runs a reader keeps in this browser, in IndexedDB: one database per site the page is
//! served from (`unroll-lab@<origin><folder>`, [`unroll_report::experiment::site`]), so two
//! deployments on one host never mix. Three object stores: `runs` (each completed run's results
//! JSON, under an increasing key), `summaries` (one line per run under the same key, what the
//! list shows without reading the runs) and `study` (the running study's partial results).
//! Nothing is dropped here: a write the browser refuses (its quota reached) is an error the
//! page shows, and the reader decides what to export or delete. Runs that earlier versions
//! kept in `localStorage` are moved in once ([`super::legacy_runs`]).

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use futures::future::{FutureExt, LocalBoxFuture, Shared};
use idb::{Database, DatabaseEvent, Factory, ObjectStoreParams, Query, TransactionMode};
use serde::{Deserialize, Serialize};
use unroll_core::study::data::results::StudyResults;
use unroll_report::experiment::site::scoped_key;
use wasm_bindgen::JsValue;

use super::legacy_runs::{self, Legacy};
use super::site_address::site;
use super::timer::epoch_ms;

const RUNS: &str = "runs";
const SUMMARIES: &str = "summaries";
const STUDY: &str = "study";
const IN_PROGRESS: &str = "in-progress";
const VERSION: u32 = 1;

/// One stored run, as the list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Its key in the store.
    pub id: u32,
    /// When it was stored (ms since the epoch).
    pub saved_ms: f64,
    /// What it is (`StudyResults::summary_from_json`), or why it cannot be read.
    pub summary: String,
    /// Its results JSON's length (UTF-16 code units, as the browser counts them).
    pub bytes: usize,
}

/// This site's run store (opened once per page: [`open`]).
pub struct RunStore {
    db: Database,
}

/// The store being opened or open (shared by every caller: one database handle, one move of
/// the `localStorage` runs).
type Opening = Shared<LocalBoxFuture<'static, Result<Rc<RunStore>, String>>>;

thread_local! {
    static OPENING: RefCell<Option<Opening>> = const { RefCell::new(None) };
}

/// This site's store if it is open (for what must be handed to the browser at once: the page
/// going away).
pub fn opened() -> Option<Rc<RunStore>> {
    OPENING.with(|o| o.borrow().as_ref()?.peek()?.clone().ok())
}

/// This site's store, opened (and the runs `localStorage` held moved over) on first use; a
/// failure is tried again at the next use.
pub async fn open() -> Result<Rc<RunStore>, String> {
    let opening = OPENING.with(|o| {
        let mut o = o.borrow_mut();
        o.get_or_insert_with(|| open_now().boxed_local().shared())
            .clone()
    });
    let opened = opening.await;
    if opened.is_err() {
        OPENING.with(|o| *o.borrow_mut() = None);
    }
    opened
}

async fn open_now() -> Result<Rc<RunStore>, String> {
    let name = scoped_key("runs", &site());
    let factory = Factory::new().map_err(|e| format!("this browser offers no IndexedDB: {e}"))?;
    let mut request = factory.open(&name, Some(VERSION)).map_err(text)?;
    request.on_upgrade_needed(|event| {
        let Ok(db) = event.database() else { return };
        for store in [RUNS, SUMMARIES, STUDY] {
            if !db.store_names().iter().any(|s| s == store) {
                let mut params = ObjectStoreParams::new();
                params.auto_increment(store == RUNS);
                let _ = db.create_object_store(store, params);
            }
        }
    });
    let store = Rc::new(RunStore {
        db: request
            .await
            .map_err(|e| format!("cannot open the run store: {e}"))?,
    });
    store.move_legacy_in().await;
    Ok(store)
}

impl RunStore {
    /// Moves what `localStorage` holds for this site in (a failure is logged and leaves the
    /// key for the next page load).
    async fn move_legacy_in(&self) {
        for (key, held) in legacy_runs::held() {
            let moved = match held {
                Legacy::Runs(runs) => {
                    let mut moved = Ok(());
                    for json in &runs {
                        moved = self.add(json, epoch_ms()).await.map(|_| ());
                        if moved.is_err() {
                            break;
                        }
                    }
                    moved
                }
                Legacy::InProgress(json) => match self.save_in_progress(&json) {
                    Ok(write) => write.await,
                    Err(err) => Err(err),
                },
            };
            match moved {
                Ok(()) => legacy_runs::remove(&key),
                Err(err) => {
                    log::warn!("what localStorage kept under {key} could not be moved: {err}")
                }
            }
        }
    }

    /// The stored runs, oldest first.
    pub async fn runs(&self) -> Result<Vec<RunSummary>, String> {
        let tx = self
            .db
            .transaction(&[SUMMARIES], TransactionMode::ReadOnly)
            .map_err(text)?;
        let all = tx
            .object_store(SUMMARIES)
            .map_err(text)?
            .get_all(None, None)
            .map_err(text)?;
        let values = all.await.map_err(text)?;
        let mut runs: Vec<RunSummary> = values
            .iter()
            .filter_map(|v| serde_json::from_str(&v.as_string()?).ok())
            .collect();
        runs.sort_by_key(|r| r.id);
        Ok(runs)
    }

    /// Stores a completed run's results JSON: its key, or why the browser refused it.
    pub async fn add(&self, json: &str, saved_ms: f64) -> Result<u32, String> {
        let stores = [RUNS, SUMMARIES];
        let tx = self
            .db
            .transaction(&stores, TransactionMode::ReadWrite)
            .map_err(text)?;
        let runs = tx.object_store(RUNS).map_err(text)?;
        let key = runs
            .add(&JsValue::from_str(json), None)
            .map_err(full)?
            .await
            .map_err(full)?;
        let id = key.as_f64().ok_or("the store gave the run no number")? as u32;
        let summary = RunSummary {
            id,
            saved_ms,
            summary: StudyResults::summary_from_json(json)
                .unwrap_or_else(|e| format!("unreadable ({e})")),
            bytes: json.encode_utf16().count(),
        };
        let line = serde_json::to_string(&summary).map_err(|e| e.to_string())?;
        let summaries = tx.object_store(SUMMARIES).map_err(text)?;
        summaries
            .put(&JsValue::from_str(&line), Some(&key))
            .map_err(full)?
            .await
            .map_err(full)?;
        finish(tx.commit().map_err(full)?).await?;
        Ok(id)
    }

    /// The results JSON of run `id`.
    pub async fn run(&self, id: u32) -> Result<String, String> {
        let tx = self
            .db
            .transaction(&[RUNS], TransactionMode::ReadOnly)
            .map_err(text)?;
        let get = tx
            .object_store(RUNS)
            .map_err(text)?
            .get(key(id))
            .map_err(text)?;
        let value = get
            .await
            .map_err(text)?
            .ok_or(format!("run {id} is not stored"))?;
        value
            .as_string()
            .ok_or_else(|| format!("run {id} is not text"))
    }

    /// Deletes run `id`.
    pub async fn delete(&self, id: u32) -> Result<(), String> {
        let stores = [RUNS, SUMMARIES];
        let tx = self
            .db
            .transaction(&stores, TransactionMode::ReadWrite)
            .map_err(text)?;
        for store in stores {
            tx.object_store(store)
                .map_err(text)?
                .delete(key(id))
                .map_err(text)?
                .await
                .map_err(text)?;
        }
        finish(tx.commit().map_err(text)?).await
    }

    /// Replaces the running study's partial results. The write is handed to the browser before
    /// this returns (so it also runs when the page goes away); the future says how it ended.
    pub fn save_in_progress(
        &self,
        json: &str,
    ) -> Result<impl Future<Output = Result<(), String>>, String> {
        let tx = self
            .db
            .transaction(&[STUDY], TransactionMode::ReadWrite)
            .map_err(text)?;
        let study = tx.object_store(STUDY).map_err(text)?;
        let put = study.put(
            &JsValue::from_str(json),
            Some(&JsValue::from_str(IN_PROGRESS)),
        );
        let put = put.map_err(full)?;
        Ok(async move {
            put.await.map_err(full)?;
            finish(tx).await
        })
    }

    /// The running study's partial results, if a study was left unfinished.
    pub async fn in_progress(&self) -> Result<Option<String>, String> {
        let tx = self
            .db
            .transaction(&[STUDY], TransactionMode::ReadOnly)
            .map_err(text)?;
        let get = tx
            .object_store(STUDY)
            .map_err(text)?
            .get(in_progress_key())
            .map_err(text)?;
        Ok(get.await.map_err(text)?.and_then(|v| v.as_string()))
    }

    /// Forgets the running study's partial results (it ended and was stored, or had none).
    pub async fn clear_in_progress(&self) -> Result<(), String> {
        let tx = self
            .db
            .transaction(&[STUDY], TransactionMode::ReadWrite)
            .map_err(text)?;
        let delete = tx
            .object_store(STUDY)
            .map_err(text)?
            .delete(in_progress_key());
        delete.map_err(text)?.await.map_err(text)?;
        finish(tx).await
    }
}

fn key(id: u32) -> Query {
    Query::Key(JsValue::from_f64(f64::from(id)))
}

fn in_progress_key() -> Query {
    Query::Key(JsValue::from_str(IN_PROGRESS))
}

/// Waits for `tx` to end: committed, or why not (the quota in the reader's words).
async fn finish(tx: idb::Transaction) -> Result<(), String> {
    let raw: web_sys::IdbTransaction = tx.into();
    match idb::Transaction::from(raw.clone()).await {
        Ok(result) if result.is_committed() => Ok(()),
        Ok(_) => Err(match raw.error() {
            Some(error) if error.name() == "QuotaExceededError" => QUOTA.into(),
            Some(error) => format!("browser storage refused the write: {}", error.message()),
            None => "browser storage did not keep the write (it was aborted)".into(),
        }),
        Err(err) => Err(full(err)),
    }
}

/// What the reader reads when this site's quota is reached.
const QUOTA: &str = "browser storage is full (this site's quota is reached): export the run \
    (JSON) to keep it, or delete stored runs";

/// An IndexedDB error in words.
fn text(err: idb::Error) -> String {
    format!("browser storage: {err}")
}

/// An error of a write: the quota's in the reader's words, others as they come.
fn full(err: idb::Error) -> String {
    let words = err.to_string();
    if words.contains("Quota") {
        QUOTA.into()
    } else {
        format!("browser storage refused the write: {words}")
    }
}
