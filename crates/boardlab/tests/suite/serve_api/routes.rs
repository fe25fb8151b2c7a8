//! The engine routes answer and refuse bad input by name; the pages and assets; a full queue and a job's time
//! limit.

use super::*;

#[tokio::test]
async fn pages_and_assets_are_embedded_and_nothing_else_is_served() {
    let app = app();
    for page in boardlab::serve::assets::PAGES {
        let (s, _, text) = get(&app, page).await;
        assert_eq!(s, StatusCode::OK, "{page}");
        assert!(text.contains("/assets/app.js"), "{page} is the page");
    }
    for name in boardlab::serve::assets::asset_names() {
        let (s, _, text) = get(&app, &format!("/assets/{name}")).await;
        assert_eq!(s, StatusCode::OK, "{name}");
        assert!(!text.is_empty(), "{name} is not empty");
    }
    for path in [
        "/assets/../Cargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/src/main.rs",
        "/assets//etc/passwd",
        "/etc/passwd",
        "/nope",
    ] {
        let (s, _, text) = get(&app, path).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{path}");
        assert!(
            !text.contains("[package]") && !text.contains("root:"),
            "{path}"
        );
    }
}

#[tokio::test]
async fn openapi_lists_every_route_and_status_reports_the_pool() {
    let app = app();
    let (s, doc, _) = get(&app, "/api/openapi.json").await;
    assert_eq!(s, StatusCode::OK);
    let paths = doc["paths"].as_object().expect("paths");
    for p in [
        "/api/status",
        "/api/openapi.json",
        "/api/mouse/position",
        "/api/mouse/move",
        "/api/mouse/hint",
        "/api/mouse/analyse",
        "/api/mouse/map",
        "/api/mouse/perft",
        "/api/mouse/session",
        "/api/peg/boards",
        "/api/peg/board",
        "/api/peg/moves",
        "/api/peg/jump",
        "/api/peg/solve",
        "/api/peg/count",
        "/api/peg/session",
        "/api/sudoku/parse",
        "/api/sudoku/solve",
        "/api/sudoku/rate",
        "/api/sudoku/hint",
        "/api/sudoku/generate",
        "/api/sudoku/classic",
        "/api/sudoku/session",
    ] {
        assert!(paths.contains_key(p), "{p} is documented");
    }
    let (s, st, _) = get(&app, "/api/status").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(st["jobs"]["workers"], 2);
    assert_eq!(st["jobs"]["queue"], 16);
}

#[tokio::test]
async fn malformed_requests_get_json_errors() {
    let app = app();
    let (s, v, _) = get(&app, "/api/nothing-here").await;
    assert_error((s, v), StatusCode::NOT_FOUND, "/api/nothing-here");
    // Not JSON, wrong content type, unknown field, wrong type, oversized body.
    let raw = |body: &str, ctype: &str| {
        Request::post("/api/mouse/position")
            .header(header::CONTENT_TYPE, ctype)
            .body(Body::from(body.to_string()))
            .expect("request")
    };
    let (s, v, _) = send(&app, raw("{not json", "application/json")).await;
    assert_error((s, v), StatusCode::BAD_REQUEST, "not valid JSON");
    let (s, v, _) = send(&app, raw("{}", "text/plain")).await;
    assert_error((s, v), StatusCode::UNSUPPORTED_MEDIA_TYPE, "Content-Type");
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "colour": 1}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "colour",
    );
    assert_error(
        post(&app, "/api/mouse/position", json!({"position": 7})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "position",
    );
    let big = json!({"puzzle": "x".repeat(100_000)});
    assert_error(
        post(&app, "/api/sudoku/parse", big).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "limit",
    );
    let (s, v, _) = send(
        &app,
        Request::get("/api/mouse/move")
            .body(Body::empty())
            .expect("r"),
    )
    .await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED, "{v}");
}

#[tokio::test]
async fn mouse_routes() {
    let app = app();
    let (s, v) = post(&app, "/api/mouse/position", json!({"position": "start"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["legal_moves"], json!(["E1-F2", "E1-D2"]));
    assert_eq!(v["turn"], "mouse");

    let (s, v) = post(
        &app,
        "/api/mouse/move",
        json!({"position": "start", "move": "e1f2"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["after"]["position"],
        "mouse=F2 cats=B8,D8,F8,H8 turn=cats"
    );

    // The published value: the cats win in 44 plies from the standard start.
    let (s, v) = post(&app, "/api/mouse/hint", json!({"position": "start"})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["value"]["winner"], "cats");
    assert_eq!(v["value"]["plies"], 44);
    assert_eq!(v["perfect_line"].as_array().map(Vec::len), Some(44));

    let (s, v) = post(
        &app,
        "/api/mouse/analyse",
        json!({"position": "mouse=C3 cats=B4,D4,A1,E1 turn=cats", "depth": 8}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["exact"]["winner"], "mouse");
    assert_eq!(v["exact"]["plies"], 10);
    assert!(v["tables"]["probes"].as_u64().is_some_and(|p| p > 0), "{v}");
    let (s, v) = post(
        &app,
        "/api/mouse/analyse",
        json!({"position": "start", "level": 10}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["perfect"], true);

    // The picture: from the start every free dark square is a cats' win for the mouse to move.
    let (s, v) = post(&app, "/api/mouse/map", json!({"position": "start"})).await;
    assert_eq!(s, StatusCode::OK);
    let squares = v["squares"].as_array().expect("squares");
    assert_eq!(squares.len(), 28);
    let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 4})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["count"], "344");
    let (s, v) = post(&app, "/api/mouse/perft", json!({"depth": 57})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["count"], "1199724195561122105890373964934848");

    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "mouse=I9 cats=B8,D8,F8,H8"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "I9",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "mouse=E1 cats=B8,D8,F8"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "4 cats",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/position",
            json!({"position": "start", "rule": "chess"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "chess",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/move",
            json!({"position": "start", "move": "E1-E2"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "E1-E2",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/move",
            json!({"position": "start", "move": "B8-A7"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "B8",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/move",
            json!({"position": "start", "move": "hello"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hello",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "level": 11}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "level",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "level": 0}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "level",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "depth": 65}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "depth",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "level": 3, "depth": 3}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "not both",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "tt_bits": 30}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "tt_bits",
    );
    assert_error(
        post(
            &app,
            "/api/mouse/analyse",
            json!({"position": "start", "time_ms": -5}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "time_ms",
    );
    assert_error(
        post(&app, "/api/mouse/perft", json!({"depth": 65})).await,
        StatusCode::BAD_REQUEST,
        "depth",
    );
    assert_error(
        post(&app, "/api/mouse/map", json!({"position": ""})).await,
        StatusCode::BAD_REQUEST,
        "position",
    );
}

#[tokio::test]
async fn peg_routes() {
    let app = app();
    let (s, v, _) = get(&app, "/api/peg/boards").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v.as_array().map(Vec::len), Some(5));
    let (s, v) = post(
        &app,
        "/api/peg/board",
        json!({"problem": {"board": "english"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["holes"].as_array().map(Vec::len), Some(33));
    assert_eq!(v["vacancies"], json!(["d4"]));
    assert_eq!(v["symmetries"], 8);
    let (s, v) = post(&app, "/api/peg/moves", json!({"problem": {}})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["legal_jumps"],
        json!(["d2-d4", "b4-d4", "f4-d4", "d6-d4"])
    );
    let (s, v) = post(
        &app,
        "/api/peg/jump",
        json!({"problem": {"board": "triangle"}, "jump": "4-1"}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["over"], "2");
    assert_eq!(v["after"]["pegs_left"], 13);

    // A solution from the English start, replayed here: 31 jumps to one peg on d4.
    let (s, v) = post(&app, "/api/peg/solve", json!({"problem": {"finish": "d4"}})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["solvable"], true);
    let path: Vec<String> = serde_json::from_value(v["solution"].clone()).expect("jumps");
    assert_eq!(path.len(), 31);
    let mut pegs: Option<Value> = None;
    for j in &path {
        let body = match &pegs {
            Some(p) => json!({"problem": {"finish": "d4"}, "pegs": p, "jump": j}),
            None => json!({"problem": {"finish": "d4"}, "jump": j}),
        };
        let (s, v) = post(&app, "/api/peg/jump", body).await;
        assert_eq!(s, StatusCode::OK, "{j}: {v}");
        pegs = Some(v["after"]["pegs"].clone());
    }
    assert_eq!(pegs, Some(json!(["d4"])));
    // The French board from its centre has no one-peg finish (position class).
    let (s, v) = post(
        &app,
        "/api/peg/solve",
        json!({"problem": {"board": "french"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["solvable"], false);

    // The triangle, counted, against the peg crate's slow reference enumeration.
    let (s, v) = post(
        &app,
        "/api/peg/count",
        json!({"problem": {"board": "triangle"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let problem = peg::Problem::standard(peg::Board::builtin("triangle").expect("board"));
    let reference = peg::reference::count(&problem, None).expect("the reference count");
    assert_eq!(v["positions"].as_u64(), Some(reference.totals.positions));
    assert_eq!(
        v["solutions_full"],
        reference.totals.solutions_full.to_string()
    );
    assert_eq!(
        v["levels"].as_array().map(Vec::len),
        Some(reference.levels.len())
    );
    let (s, v) = post(
        &app,
        "/api/peg/count",
        json!({"problem": {"board": "triangle"}}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["cached"], true);

    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"board": "hexagon"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hexagon",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"layout": "ooo\noxo\nooo"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "line 2, column 2",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"layout": "ooo", "lattice": "hex"}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "hex",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"start": ["z9"]}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "z9",
    );
    assert_error(
        post(
            &app,
            "/api/peg/board",
            json!({"problem": {"start": ["d4", "d4"]}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "twice",
    );
    assert_error(
        post(&app, "/api/peg/board", json!({"problem": {"finish": "q1"}})).await,
        StatusCode::BAD_REQUEST,
        "q1",
    );
    assert_error(
        post(&app, "/api/peg/moves", json!({"pegs": ["d4", "x1"]})).await,
        StatusCode::BAD_REQUEST,
        "x1",
    );
    assert_error(
        post(&app, "/api/peg/moves", json!({"pegs": []})).await,
        StatusCode::BAD_REQUEST,
        "no peg",
    );
    assert_error(
        post(&app, "/api/peg/jump", json!({"jump": "d1-d3"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "d3",
    );
    assert_error(
        post(&app, "/api/peg/jump", json!({"jump": "d2-d5"})).await,
        StatusCode::BAD_REQUEST,
        "d2-d5",
    );
    assert_error(
        post(&app, "/api/peg/jump", json!({"jump": "jump!"})).await,
        StatusCode::BAD_REQUEST,
        "malformed",
    );
    assert_error(
        post(
            &app,
            "/api/peg/count",
            json!({"problem": {"board": "wiegleb"}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "too big",
    );
}

#[tokio::test]
async fn sudoku_routes() {
    let app = app();
    let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let sol = "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    let (s, v) = post(&app, "/api/sudoku/parse", json!({"puzzle": p})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["clues"], 17);
    let (s, v) = post(&app, "/api/sudoku/solve", json!({"puzzle": p})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["solution"], sol);
    let (s, v) = post(&app, "/api/sudoku/solve", json!({"puzzle": ".".repeat(81)})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "not_unique");
    let easy = ".1.7.2.....8.1...25...483..1...7..........5.9..73...8..2.95......9..7....71.8..5.";
    let (s, v) = post(
        &app,
        "/api/sudoku/rate",
        json!({"puzzle": easy, "explain": true}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["rating"], 2.6);
    assert_eq!(v["difficulty"], "medium");
    let (s, v) = post(&app, "/api/sudoku/hint", json!({"puzzle": easy})).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["step"]["text"],
        "Hidden single: 2 can only go in r3c3 within box 1"
    );
    assert_eq!(v["step"]["cells"], json!([20]));
    // A wrong entry is named instead of a step.
    let mut wrong: Vec<char> = easy.chars().collect();
    wrong[0] = '9';
    let wrong: String = wrong.into_iter().collect();
    let (s, v) = post(
        &app,
        "/api/sudoku/hint",
        json!({"puzzle": easy, "grid": wrong}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["status"], "mistake");
    assert_eq!(
        v["message"],
        "The 9 in r1c1 is wrong: the solution has another digit there."
    );
    assert_eq!(v["cell"], 0);
    // The generator with a seed gives a unique puzzle of the level (as `boardlab sudoku generate` does).
    let (s, v) = post(
        &app,
        "/api/sudoku/generate",
        json!({"difficulty": "easy", "seed": 7}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["difficulty"], "easy");
    let puzzle = v["puzzle"].as_str().expect("puzzle").to_string();
    let (_, solved) = post(&app, "/api/sudoku/solve", json!({"puzzle": puzzle})).await;
    assert_eq!(solved["status"], "solved");
    assert_eq!(solved["solution"], v["solution"]);
    let (s, v) = post(
        &app,
        "/api/sudoku/classic",
        json!({"hide": 30, "seed": 1981}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["clues"], 51);

    assert_error(
        post(&app, "/api/sudoku/parse", json!({"puzzle": "44"})).await,
        StatusCode::BAD_REQUEST,
        "column",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/parse",
            json!({"puzzle": format!("44{}", ".".repeat(79))}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "r1c2",
    );
    assert_error(
        post(&app, "/api/sudoku/solve", json!({"puzzle": "x".repeat(81)})).await,
        StatusCode::BAD_REQUEST,
        "column 1",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/hint",
            json!({"puzzle": easy, "grid": "12"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "81",
    );
    let mut changed: Vec<char> = easy.chars().collect();
    changed[1] = '5';
    let changed: String = changed.into_iter().collect();
    assert_error(
        post(
            &app,
            "/api/sudoku/hint",
            json!({"puzzle": easy, "grid": changed}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "r1c2",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/generate",
            json!({"difficulty": "impossible"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "impossible",
    );
    assert_error(
        post(&app, "/api/sudoku/generate", json!({"symmetry": "spiral"})).await,
        StatusCode::BAD_REQUEST,
        "spiral",
    );
    assert_error(
        post(&app, "/api/sudoku/classic", json!({"hide": 99})).await,
        StatusCode::BAD_REQUEST,
        "hide",
    );
    assert_error(
        post(
            &app,
            "/api/sudoku/classic",
            json!({"hide": 64, "unique": true, "seed": 1}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unique",
    );
}

#[tokio::test]
async fn a_full_queue_answers_503_and_a_slow_job_passes_its_time_limit() {
    // One worker, no queue: while one search runs, the next heavy request (a rating; lookups such as a
    // solve have a lane of their own) is turned away at once.
    let app = router(Limits {
        workers: 1,
        queue: 0,
        time_limit: Duration::from_secs(30),
    });
    let slow = json!({"position": "start", "depth": 64, "time_ms": 1500, "tt_bits": 8});
    let a = tokio::spawn({
        let app = app.clone();
        let slow = slow.clone();
        async move { post(&app, "/api/mouse/analyse", slow).await }
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_error(
        post(&app, "/api/sudoku/rate", json!({"puzzle": ".".repeat(81)})).await,
        StatusCode::SERVICE_UNAVAILABLE,
        "busy",
    );
    let (s, _) = a.await.expect("the first request finishes");
    assert_eq!(s, StatusCode::OK);
    let (_, st, _) = get(&app, "/api/status").await;
    assert_eq!(st["jobs"]["rejected"], 1);

    // A count that cannot finish within a 300 ms limit is answered 503 and stops.
    let app = router(Limits {
        workers: 1,
        queue: 4,
        time_limit: Duration::from_millis(300),
    });
    assert_error(
        post(
            &app,
            "/api/peg/count",
            json!({"problem": {"board": "english"}}),
        )
        .await,
        StatusCode::SERVICE_UNAVAILABLE,
        "time limit",
    );
}

/// The engine routes' exact solutions are the sessions' cache, charged to the one memory budget (no
/// process-wide cache of their own beside it).
#[tokio::test]
async fn the_hint_and_map_routes_share_the_budgeted_mouse_solutions() {
    let app = app();
    let (_, st, _) = get(&app, "/api/status").await;
    let mouse_bytes = |st: &Value| {
        st["cache"]["caches"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["name"] == "mouse solutions"))
            .and_then(|c| c["bytes"].as_u64())
            .unwrap_or(0)
    };
    assert_eq!(mouse_bytes(&st), 0, "{st}");
    for route in ["/api/mouse/hint", "/api/mouse/map"] {
        let (s, answer) = post(&app, route, json!({"position": "start", "rule": "escape"})).await;
        assert_eq!(s, StatusCode::OK, "{route}: {answer}");
    }
    let (_, st, _) = get(&app, "/api/status").await;
    let bytes = mouse_bytes(&st);
    // One 8x8 solution: a byte per state.
    assert!(bytes > 100_000, "{st}");
    assert!(st["cache"]["used_bytes"].as_u64() >= Some(bytes), "{st}");
    assert_eq!(
        st["cache"]["entries"], 1,
        "hint and map share one solution: {st}"
    );
}

/// The peg routes' kept counts are charged to the one memory budget ("peg counts"), and go, least recently used
/// first, when it needs the room: with a budget that holds one triangle count and not two, a second start's
/// count evicts the first, which is then counted again rather than answered from the cache.
#[tokio::test]
async fn the_peg_counts_are_charged_to_the_budget() {
    let counts = |st: &Value| {
        st["cache"]["caches"]
            .as_array()
            .and_then(|c| c.iter().find(|c| c["name"] == "peg counts"))
            .and_then(|c| c["bytes"].as_u64())
            .unwrap_or(0)
    };
    let first = json!({"problem": {"board": "triangle"}});
    let second = json!({"problem": {"board": "triangle", "start": ["4"]}});
    let app = app();
    let (s, v) = post(&app, "/api/peg/count", first.clone()).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, st, _) = get(&app, "/api/status").await;
    let one = counts(&st);
    // A triangle count: 14 levels of numbers and decimal strings, a few kilobytes.
    assert!((500..20_000).contains(&one), "{st}");
    assert!(st["cache"]["used_bytes"].as_u64() >= Some(one), "{st}");

    let small = boardlab::serve::router_for(boardlab::serve::app_state_with(
        Limits {
            workers: 2,
            queue: 16,
            time_limit: Duration::from_secs(30),
        },
        one * 3 / 2,
    ));
    for (problem, cached) in [(&first, false), (&first, true), (&second, false)] {
        let (s, v) = post(&small, "/api/peg/count", problem.clone()).await;
        assert_eq!(s, StatusCode::OK, "{v}");
        assert_eq!(v["cached"], cached, "{problem}");
    }
    let (_, st, _) = get(&small, "/api/status").await;
    assert_eq!(st["cache"]["evicted"], 1, "{st}");
    assert!(counts(&st) <= one * 3 / 2, "{st}");
    let (s, v) = post(&small, "/api/peg/count", first).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["cached"], false, "evicted, so counted again: {v}");
}
