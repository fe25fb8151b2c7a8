//! The save-file loader of every game: any text is a saved game or a clear error, never a panic; and a game
//! loaded from a save saves again to a state that loads.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use play::save::{FORMAT, VERSION};
use play::{Clock, Env, Inline, SaveFile, Session};

fn env() -> Env {
    let mut env = Env::new(Arc::new(Inline), Clock::manual());
    // A saved Mouse & Cats game may be on a big board with the engine to move: bound its search.
    env.mouse_time_limit = Some(std::time::Duration::from_millis(20));
    env
}

fn load(save: &SaveFile) {
    let env = env();
    if let Ok(session) = Session::load(save, &env) {
        let again = session.save();
        if let Err(e) = Session::load(&again, &env) {
            panic!("a game saved from a loaded one does not load: {e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(save) = SaveFile::parse(text) {
        load(&save);
    }
    // The same text as the state of each game, in a valid envelope: reaches each game's own loader.
    if let Ok(state) = serde_json::from_str::<serde_json::Value>(text) {
        for game in ["mouse", "peg", "sudoku"] {
            let file = serde_json::json!({
                "format": FORMAT, "version": VERSION, "game": game, "state": state,
            });
            if let Ok(save) = SaveFile::parse(&file.to_string()) {
                load(&save);
            }
        }
    }
});
