//! Pictures: decoding a large upload (and scaling it to `MAX_SIDE`), and encoding a decoded one
//! as half-blocks for a message (60×12 cells) and full screen (158×46). Decoding runs on a
//! blocking thread; encoding on the frame that first shows a picture at a size, once.
//! Run with `cargo bench --bench images`.

use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::layout::Size;
use ratatui_image::Resize;
use ratatui_image::picker::Picker;
use std::hint::black_box;
use topicterm::net::images::{MAX_SIDE, decode};
use topicterm::ui::image::{Fit, encode};

/// A 3,000×2,000 photo-like picture (gradients and noise, so that it does not compress away).
fn photo(format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_fn(3000, 2000, |x, y| {
        let n = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)) % 32;
        image::Rgb([(x / 12) as u8 ^ n as u8, (y / 8) as u8, ((x + y) / 20) as u8])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, format).expect("encodes");
    out.into_inner()
}

fn images(c: &mut Criterion) {
    let jpeg = photo(image::ImageFormat::Jpeg);
    let png = photo(image::ImageFormat::Png);
    let decoded = decode(&jpeg).expect("decodes");
    assert!(decoded.width() <= MAX_SIDE && decoded.height() <= MAX_SIDE);
    eprintln!(
        "jpeg {} KB, png {} KB, decoded {}×{}",
        jpeg.len() >> 10,
        png.len() >> 10,
        decoded.width(),
        decoded.height()
    );

    c.bench_function("decode a 3000×2000 JPEG and scale it", |b| {
        b.iter(|| decode(black_box(&jpeg)).unwrap())
    });
    c.bench_function("decode a 3000×2000 PNG and scale it", |b| b.iter(|| decode(black_box(&png)).unwrap()));
    let picker = Picker::halfblocks();
    c.bench_function("half-blocks for a message, 60×12", |b| {
        b.iter(|| encode(&picker, black_box(&decoded), Size::new(60, 12), Fit::Shrink).unwrap())
    });
    c.bench_function("half-blocks full screen, 158×46", |b| {
        b.iter(|| encode(&picker, black_box(&decoded), Size::new(158, 46), Fit::Fill).unwrap())
    });
    // Sixel (xterm, foot, WezTerm…) at 10×20 pixel cells (half-blocks' picker's): made on a
    // blocking thread, not on the frame.
    let mut sixel = Picker::halfblocks();
    sixel.set_protocol_type(ratatui_image::picker::ProtocolType::Sixel);
    c.bench_function("sixel for a message, 60×12", |b| {
        b.iter(|| encode(&sixel, black_box(&decoded), Size::new(60, 12), Fit::Shrink).unwrap())
    });
    c.bench_function("sixel full screen, 158×46", |b| {
        b.iter(|| encode(&sixel, black_box(&decoded), Size::new(158, 46), Fit::Fill).unwrap())
    });
    // What encoding cost before the picture was first brought down to the pixels it takes.
    let filter = Some(image::imageops::FilterType::Triangle);
    c.bench_function("half-blocks full screen, 158×46, resampled by ratatui-image", |b| {
        b.iter(|| picker.new_protocol(decoded.clone(), Size::new(158, 46), Resize::Scale(filter)).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = images
}
criterion_main!(benches);
