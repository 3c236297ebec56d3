// The web door's page: a sign-in form, then the visitor's game in a terminal (xterm.js).
// Keys, mouse reports and pastes go to the server as binary frames, a resize as a JSON
// text frame; the game's output comes back as binary frames; the server's own words
// (refused, the visit's end) as JSON text frames.
"use strict";
(function () {
  const form = document.getElementById("signin");
  const message = document.getElementById("message");
  const encoder = new TextEncoder();
  let term = null;
  let fit = null;
  let socket = null;

  // The game needs 80x24 cells at least: the font is as large as lets the page hold that
  // many, 6 to 16 pixels (a phone gets a small one; pinching zooms). On a tall narrow screen
  // (a phone held upright) the terminal keeps to MAX_TALL rows at the top, not a column of
  // a hundred rows.
  const MAX_TALL = 36;

  function fontSize() {
    const byWidth = Math.floor((window.innerWidth - 4) / 80 / 0.602);
    const byHeight = Math.floor((window.innerHeight - 4) / 24 / 1.2);
    return Math.max(6, Math.min(16, byWidth, byHeight));
  }

  function fitTerminal() {
    term.options.fontSize = fontSize();
    const size = fit.proposeDimensions();
    if (!size || !isFinite(size.cols) || !isFinite(size.rows)) return;
    const tall = window.innerHeight > window.innerWidth;
    const rows = tall ? Math.min(size.rows, MAX_TALL) : size.rows;
    if (size.cols !== term.cols || rows !== term.rows) term.resize(size.cols, rows);
  }

  function makeTerminal() {
    term = new Terminal({
      fontFamily: '"DejaVu Sans Mono", monospace',
      fontSize: fontSize(),
      cursorBlink: false,
      scrollback: 0,
      allowProposedApi: false,
      macOptionIsMeta: true,
      theme: { background: "#000000" },
    });
    window.terminal = term;  // (what the page shows, for its tests)
    fit = new FitAddon.FitAddon();
    term.loadAddon(fit);
    term.open(document.getElementById("terminal"));
    fitTerminal();
    window.addEventListener("resize", fitTerminal);
  }

  function send(bytes) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(bytes);
  }

  function showMessage(text) {
    message.textContent = text;
    form.hidden = false;
    if (term) {
      term.reset();  // (no old lobby drawn behind the form)
      term.blur();
    }
    document.getElementById("name").focus();
  }

  // A lost connection of a signed-in tab is made again by itself, with its pass, after
  // 1, 2, 4, 8, 16 seconds (then the form): back at his table when his seat is kept.
  const RETRIES = 5;
  let retries = 0;

  function reconnect() {
    const pass = keptPass();
    if (!pass || retries >= RETRIES) {
      showMessage(document.documentElement.dataset.gone || "");
      return;
    }
    const delay = 1000 * Math.pow(2, retries);
    retries += 1;
    message.textContent = document.documentElement.dataset.retrying || "";
    window.setTimeout(() => {
      if (!socket) play({ t: "hello", name: "", code: "", password: "", resume: keptPass() });
    }, delay);
  }

  // A signed-in tab's pass back in (the server's "resume"), kept for this tab alone.
  const PASS = "tui-domino-pass";

  function keepPass(token) {
    try {
      if (token) window.sessionStorage.setItem(PASS, token);
      else window.sessionStorage.removeItem(PASS);
    } catch (e) { /* storage refused: a reload signs in again */ }
  }

  function keptPass() {
    try { return window.sessionStorage.getItem(PASS) || ""; } catch (e) { return ""; }
  }

  function play(hello) {
    const url = new URL("ws", window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    let playing = false;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      hello.cols = term.cols;
      hello.rows = term.rows;
      socket.send(JSON.stringify(hello));
    };
    socket.onmessage = (event) => {
      if (typeof event.data !== "string") {
        term.write(new Uint8Array(event.data));
        return;
      }
      const said = JSON.parse(event.data);
      if (said.t === "ready") {
        playing = true;
        retries = 0;
        message.textContent = "";
        form.hidden = true;
        // The pass back in: a reload of this tab comes back as the same visitor.
        if (typeof said.resume === "string") keepPass(said.resume);
        else keepPass("");
        term.focus();
      } else if (said.t === "refused" || said.t === "bye") {
        playing = false;
        if (said.t === "refused") keepPass("");  // (after a bye, a reload signs in again)
        if (said.t === "bye") term.reset();
        showMessage(said.text);
      }
    };
    socket.onclose = () => {
      socket = null;
      if (!opened) {  // the server does not answer (down, or the network is)
        if (retries > 0) reconnect();
        else showMessage(document.documentElement.dataset.down || "");
      } else if (playing) {
        reconnect();
      }
    };
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    message.textContent = "";
    if (socket) return;
    play({
      t: "hello",
      name: document.getElementById("name").value,
      code: document.getElementById("code").value,
      password: document.getElementById("password").value,
    });
  });

  document.fonts.load('16px "DejaVu Sans Mono"').then(() => {
    makeTerminal();
    // Ctrl+C (or Cmd+C) with text selected copies it, as terminals do (the browser's own
    // copy, which xterm.js fills with the selection); without a selection it is the game's.
    term.attachCustomKeyEventHandler((event) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key === "c"
          && term.hasSelection()) {
        return false;
      }
      return true;
    });
    term.onData((data) => send(encoder.encode(data)));
    term.onBinary((data) => {
      const bytes = new Uint8Array(data.length);
      for (let i = 0; i < data.length; i++) bytes[i] = data.charCodeAt(i) & 255;
      send(bytes);
    });
    term.onResize((size) => {
      if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ t: "resize", cols: size.cols, rows: size.rows }));
      }
    });
    const pass = keptPass();
    if (pass) {  // a reload: back in as the same visitor, without the form
      form.hidden = true;
      play({ t: "hello", name: "", code: "", password: "", resume: pass });
    }
    document.body.dataset.ready = "1";
  });
})();
