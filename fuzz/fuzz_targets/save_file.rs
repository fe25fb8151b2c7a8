//! The save-file loader of every game: any text is a saved game or a clear error, never a panic; and a game
//! loaded from a save saves again to a state that loads.
#![no_main]

use std::path::{Path, PathBuf};

use boardlab::tui::games;
use boardlab::tui::save::{FORMAT, SaveFile, VERSION};
use boardlab::tui::screen::Config;
use boardlab::tui::theme::Theme;
use libfuzzer_sys::fuzz_target;

fn config() -> Config {
    Config {
        theme: Theme::mono(),
        clock: boardlab::tui::clock::Clock::manual(),
        save_dir: PathBuf::from("/nonexistent"),
        seed: Some(1),
    }
}

fn load(save: &SaveFile) {
    let Some(game) = save.game() else { return };
    let cfg = config();
    if let Ok(screen) = games::load(game, &save.state, &cfg) {
        let again = screen.save_state(&cfg);
        if let Err(e) = games::load(game, &again, &cfg) {
            panic!("a {game:?} game saved from a loaded one does not load: {e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("fuzz.json");
    if let Ok(save) = SaveFile::parse(text, path) {
        load(&save);
    }
    // The same text as the state of each game, in a valid envelope: reaches each game's own loader.
    if let Ok(state) = serde_json::from_str::<serde_json::Value>(text) {
        for game in ["mouse", "peg", "sudoku"] {
            let file = serde_json::json!({
                "format": FORMAT, "version": VERSION, "game": game, "state": state,
            });
            if let Ok(save) = SaveFile::parse(&file.to_string(), path) {
                load(&save);
            }
        }
    }
});
