//! Precompiled tables. Byte 0 bit 0 set: the rest is a table file as an attacker writes it (bit 1:
//! its checksum fixed first, so that the bytes reach the decoder): `load_table` refuses it or
//! loads a router that routes, explains and lists without panicking. Bit 0 clear: the rest is a
//! manifest (then, after the last NUL, `host path` requests): compiled, written, loaded, and the
//! loaded router must decide every request exactly as the compiled one.
#![no_main]

use ingress_router::{CompileOptions, Request, input, load_table_seeded};
use libfuzzer_sys::fuzz_target;

#[path = "common/layout.rs"]
mod layout;

const DEFAULT_REQUESTS: &[(&[u8], &[u8])] =
    &[(b"example.com", b"/"), (b"a.example.com", b"/foo/bar"), (b"", b""), (b"x", b"/a/../b//c")];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    if flags & 1 != 0 {
        let mut bytes = rest.to_vec();
        if flags & 2 != 0 && bytes.len() > 12 && bytes.len() >= 21 + usize::from(bytes[12]) {
            let header = 13 + usize::from(bytes[12]) + 8;
            let crc = crc32fast::hash(&bytes[header..]);
            bytes[header - 4..header].copy_from_slice(&crc.to_le_bytes());
        }
        match load_table_seeded(&bytes, 1) {
            Err(e) => {
                let _ = e.to_string();
            }
            Ok(router) => {
                for &(host, path) in DEFAULT_REQUESTS {
                    let (host, path) = (String::from_utf8_lossy(host), String::from_utf8_lossy(path));
                    let request = Request::new(&host, &path);
                    let _ = router.route(&request).view(&request);
                    let _ = router.explain(&request);
                }
                let _ = router.table();
                assert!(router.to_table_file().is_ok());
            }
        }
        return;
    }
    let Some((_, text, lines)) = layout::split(data) else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let Ok(parsed) = input::parse("fuzz", text) else { return };
    let options = CompileOptions::default().with_normalize_path(flags & 4 != 0).with_merge_slashes(flags & 8 != 0);
    let Ok(compiled) = ingress_router::compile_seeded(&parsed, &options, 7) else { return };
    let Ok(bytes) = compiled.to_table_file() else { return };
    let loaded = load_table_seeded(&bytes, 9).expect("a written table loads");
    for (host, path) in layout::requests(lines, DEFAULT_REQUESTS) {
        let (host, path) = (String::from_utf8_lossy(host), String::from_utf8_lossy(path));
        let request = Request::new(&host, &path);
        assert_eq!(compiled.route(&request).view(&request), loaded.route(&request).view(&request), "{host} {path}");
    }
});
