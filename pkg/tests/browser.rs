//! The bindings in headless Chromium (wasm-bindgen-test-runner with chromedriver).
mod common;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn routing_cases() {
    common::routing_cases();
}

#[wasm_bindgen_test]
fn bad_input_then_next_call_works() {
    common::bad_input_then_next_call_works();
}

#[wasm_bindgen_test]
fn scratch_answers_as_the_strings() {
    common::scratch_answers_as_the_strings();
}

#[wasm_bindgen_test]
fn request_scratch_answers_as_the_strings() {
    common::request_scratch_answers_as_the_strings();
}
