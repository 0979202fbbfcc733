//! The data layer on both databases: claims never shared, results stored once and only by the
//! claim that holds the job, cancel seen at renewal, retention.

mod common;

use common::service::{Db, BACKENDS};
use fixtures::store::{Figures, JobState, Store};

const MID_DOWNS: &str = include_str!("../instances/examples/mid-downs.toml");

async fn claims_fences_and_retention(url: &str) {
    let store = Store::open(url).await.unwrap();
    // Opening again applies no migration twice.
    let store2 = Store::open(url).await.unwrap();
    let alice = store.create_user("alice", "pw").await.unwrap().unwrap();
    assert!(
        store.create_user("alice", "other").await.unwrap().is_none(),
        "names are unique"
    );
    assert!(store.login("alice", "pw").await.unwrap().is_some());
    assert!(store.login("alice", "wrong").await.unwrap().is_none());
    let (league, version) = store
        .create_league(&alice, "Mid Downs", MID_DOWNS)
        .await
        .unwrap();
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(
            store
                .submit(
                    &alice,
                    &league,
                    &version,
                    "{}",
                    1.0,
                    fixtures::store::Caps {
                        per_account: 8,
                        queue: 16,
                    },
                )
                .await
                .unwrap()
                .unwrap()
                .id,
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let a = store.claim("w1", 30).await.unwrap().unwrap();
    let b = store2.claim("w2", 30).await.unwrap().unwrap();
    assert_ne!(a.job.id, b.job.id, "one job, one worker");
    assert!(store
        .renew(&a, "w1", 30, &Figures::default())
        .await
        .unwrap());
    assert!(
        !store
            .renew(&a, "w2", 30, &Figures::default())
            .await
            .unwrap(),
        "not w2's"
    );
    // Cancelled: the next renewal says stop, and no result is stored.
    assert!(store.cancel(&a.job.id).await.unwrap());
    assert!(!store
        .renew(&a, "w1", 30, &Figures::default())
        .await
        .unwrap());
    let files = [("fixtures.csv".to_string(), "x".to_string())];
    assert!(!store
        .finish(&a, "w1", JobState::Done, &Figures::default(), &files)
        .await
        .unwrap());
    assert!(store.files(&a.job.id).await.unwrap().is_empty());
    // Stored once, by the claim that holds the job.
    assert!(store
        .finish(&b, "w2", JobState::Done, &Figures::default(), &files)
        .await
        .unwrap());
    assert!(!store
        .finish(&b, "w2", JobState::Done, &Figures::default(), &files)
        .await
        .unwrap());
    assert_eq!(store.job(&b.job.id).await.unwrap().unwrap().completions, 1);
    // A lease that ran out: the job is claimed again, and the old claim can store nothing.
    let c = store.claim("w3", -1).await.unwrap().unwrap();
    let c2 = store.claim("w4", 30).await.unwrap().unwrap();
    assert_eq!(c.job.id, c2.job.id, "taken up again");
    assert_eq!(c2.attempt, c.attempt + 1);
    assert!(!store
        .finish(&c, "w3", JobState::Done, &Figures::default(), &files)
        .await
        .unwrap());
    assert!(store
        .finish(&c2, "w4", JobState::Done, &Figures::default(), &files)
        .await
        .unwrap());
    assert!(
        store.claim("w5", 30).await.unwrap().is_none(),
        "nothing left"
    );
    // Retention: finished jobs older than the cut are removed with their files.
    let kept = store.purge(fixtures::store::now() - 86_400).await.unwrap();
    assert_eq!(kept, 0);
    let removed = store.purge(fixtures::store::now() + 10).await.unwrap();
    assert_eq!(removed, 3);
    assert!(store.files(&b.job.id).await.unwrap().is_empty());
    assert!(
        store.version(&version).await.unwrap().is_some(),
        "the league stays"
    );
}

#[test]
fn claims_fences_and_retention_on_both_databases() {
    for backend in BACKENDS {
        let db = Db::new(backend);
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(claims_fences_and_retention(&db.url()));
    }
}
