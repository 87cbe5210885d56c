//! Decoding the large organization's answers (`demo-server --size large`: 20,000 users, 2,000
//! channels, 200,000 messages) the way the client does — straight into typed structures — against
//! parsing the same bytes into a `serde_json::Value` tree. Run with `cargo bench --bench decode`.
//!
//! The bytes are real answers of the demo server to the client's own register request and to a
//! 5,000-message page (the largest the reference server serves), fetched once over loopback.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use topicterm::api::{MessagesResponse, RegisterResponse, decode};
use topicterm::server::{DemoServer, ServerOptions, seed};

/// The register answer and a 5,000-message page of the large organization, as served.
fn answers() -> (Vec<u8>, Vec<u8>) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let seed = seed::large::large_seed(seed::DEMO_SEED).expect("large seed");
        let server = DemoServer::start(ServerOptions { seed, ..Default::default() }).await.expect("server");
        let creds = server.credentials("member").expect("member");
        let http = reqwest::Client::new();
        let form = topicterm::net::register_params().params();
        let register = http
            .post(format!("{}/api/v1/register", server.url))
            .basic_auth(&creds.email, Some(&creds.api_key))
            .form(form.pairs())
            .send()
            .await
            .expect("register")
            .bytes()
            .await
            .expect("register body");
        let page = http
            .get(format!("{}/api/v1/messages", server.url))
            .basic_auth(&creds.email, Some(&creds.api_key))
            .query(&[
                ("anchor", "newest"),
                ("num_before", "5000"),
                ("num_after", "0"),
                ("apply_markdown", "true"),
            ])
            .send()
            .await
            .expect("messages")
            .bytes()
            .await
            .expect("messages body");
        server.stop().await;
        (register.to_vec(), page.to_vec())
    })
}

fn benches(c: &mut Criterion) {
    let (register, page) = answers();
    let later = decode::<RegisterResponse>("/register", 200, None, &register)
        .expect("register decodes")
        .realm_users
        .expect("users");
    let users = later.to_vec().len();
    let messages =
        decode::<MessagesResponse>("/messages", 200, None, &page).expect("page decodes").messages.len();
    eprintln!(
        "register: {} bytes, {users} users; page: {} bytes, {messages} messages",
        register.len(),
        page.len()
    );
    assert!(users >= 20_000 && messages == 5_000, "the large organization");

    let mut g = c.benchmark_group("register (20,000 users)");
    g.throughput(Throughput::Bytes(register.len() as u64));
    g.bench_function("typed, as the client decodes", |b| {
        b.iter(|| {
            black_box(decode::<RegisterResponse>("/register", 200, None, black_box(&register)).expect("ok"))
        })
    });
    g.bench_function("serde_json::Value", |b| {
        b.iter(|| black_box(serde_json::from_slice::<serde_json::Value>(black_box(&register)).expect("ok")))
    });
    // The users, kept as JSON by the typed decoding above, read after the first frame.
    g.bench_function("its users, read off the first frame's path", |b| {
        b.iter(|| black_box(black_box(&later).to_vec()))
    });
    g.finish();

    let mut g = c.benchmark_group("messages page (5,000)");
    g.throughput(Throughput::Bytes(page.len() as u64));
    g.bench_function("typed, as the client decodes", |b| {
        b.iter(|| {
            black_box(decode::<MessagesResponse>("/messages", 200, None, black_box(&page)).expect("ok"))
        })
    });
    g.bench_function("serde_json::Value", |b| {
        b.iter(|| black_box(serde_json::from_slice::<serde_json::Value>(black_box(&page)).expect("ok")))
    });
    // What decoding cost before one message could fail alone (every message straight into its
    // type, the whole page failing with any one): the price of `api::lenient`.
    #[derive(serde::Deserialize)]
    struct WholePage {
        #[allow(dead_code)]
        messages: Vec<topicterm::api::Message>,
    }
    g.bench_function("typed in one piece (before lenient decoding)", |b| {
        b.iter(|| black_box(serde_json::from_slice::<WholePage>(black_box(&page)).expect("ok")))
    });
    g.finish();
}

criterion_group! {
    name = decoding;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(5));
    targets = benches
}
criterion_main!(decoding);
