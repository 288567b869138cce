// The report's behaviour: inlined into every report. Text from the files is only ever
// set with textContent, never parsed as HTML.
"use strict";
(function () {
  const PALETTE = 8;

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function lineNumbers(first, text) {
    const count = text.length ? (text.slice(0, -1).match(/\n/g) || []).length + 1 : 1;
    const numbers = [];
    for (let k = 0; k < count; k++) numbers.push(String(first + k));
    return numbers.join("\n");
  }

  // -- the compare's second side: drawn from the file's own source when first asked for -----
  function drawSecond(file) {
    const target = file.querySelector(".second-side");
    if (target.childElementCount) return target;
    const source = Array.from(file.querySelectorAll(".first-side pre.code"), (pre) => pre.textContent).join("");
    const ranges = JSON.parse(file.dataset.second);
    ranges.forEach(([start, end], k) => {
      const text = source.slice(start, end);
      const first = (source.slice(0, start).match(/\n/g) || []).length + 1;
      const block = element("div", "chunk c" + (k % PALETTE));
      block.dataset.start = start; block.dataset.end = end;
      block.append(element("pre", "ln", lineNumbers(first, text)), element("pre", "code", text));
      target.append(block);
    });
    return target;
  }

  document.querySelectorAll("article.file button.toggle").forEach((button) => {
    const label = button.textContent;
    button.addEventListener("click", () => {
      const file = button.closest("article.file");
      const second = drawSecond(file);
      const showing = second.hidden;
      second.hidden = !showing;
      file.querySelector(".first-side").hidden = showing;
      button.setAttribute("aria-pressed", String(showing));
      button.textContent = showing ? "show the first side" : label;
    });
  });

  // -- n / p walk the problems, worst first (the order of the problems table) --------------------
  const problemLinks = Array.from(document.querySelectorAll(".problems-table a"));
  let problemAt = -1;
  function goProblem(step) {
    if (!problemLinks.length) return;
    problemAt = (problemAt + step + problemLinks.length) % problemLinks.length;
    const target = document.getElementById(problemLinks[problemAt].hash.slice(1));
    if (!target) return;
    document.querySelectorAll(".chunk.-focus").forEach((c) => c.classList.remove("-focus"));
    target.classList.add("-focus");
    target.scrollIntoView({ block: "center" });
  }

  // -- the walkthrough ------------------------------------------------------------------------------
  const data = document.getElementById("teach-data");
  let teach = null;
  if (data) teach = walkthrough(JSON.parse(data.textContent));

  function walkthrough(run) {
    const code = document.getElementById("teach-code");
    const box = code.parentElement;  // the scrolling source box (positioned: the spans' offsetParent)
    const spans = run.segments.map((text) => element("span", "", text));
    code.append(...spans);
    const source = run.segments.join("");
    document.getElementById("teach-lines").textContent = lineNumbers(1, source);
    const chunkOf = new Array(spans.length).fill(-1);
    run.chunks.forEach(([a, b], k) => { for (let i = a; i < b; i++) chunkOf[i] = k; });
    const closes = [];
    run.steps.forEach((step, i) => { if (i > 0 && step.done > run.steps[i - 1].done) closes.push(i); });
    let index = 0, timer = null;

    function sentence(text) {
      const out = document.getElementById("teach-sentence");
      out.textContent = "";
      text.split("`").forEach((part, k) => out.append(k % 2 ? element("code", "", part) : document.createTextNode(part)));
    }

    function show(i) {
      index = Math.max(0, Math.min(run.steps.length - 1, i));
      const step = run.steps[index];
      spans.forEach((span, k) => {
        const chunk = chunkOf[k];
        let name = chunk >= 0 && chunk < step.done ? "c" + (chunk % PALETTE) : "";
        if (step.window && k >= step.window[0] && k < step.window[1]) name = "window";
        if (step.piece && k >= step.piece[0] && k < step.piece[1]) name = "now";
        span.className = name;
      });
      document.getElementById("teach-action").textContent = step.action;
      document.getElementById("teach-where").textContent =
        `step ${index + 1} of ${run.steps.length} · ${step.done} chunk${step.done === 1 ? "" : "s"} done`;
      sentence(step.sentence);
      const gauge = document.getElementById("teach-gauge");
      const size = step.windowSize || 0;
      gauge.style.width = Math.min(100, (100 * size) / (step.limit || run.limit || 1)) + "%";
      gauge.classList.toggle("over", size > (step.limit || run.limit));
      document.getElementById("teach-size").textContent = step.windowSize == null ? "" : `window ${size} of ${step.limit || run.limit} ${run.unit}`;
      // Scroll the source box alone to the piece, never the page: the step's bar and its
      // sentence stay where the reader has them.
      const focus = spans[(step.piece || step.window || [0])[0]];
      if (focus) {
        const top = focus.offsetTop, bottom = top + focus.offsetHeight;
        if (top < box.scrollTop || bottom > box.scrollTop + box.clientHeight) {
          box.scrollTop = Math.max(0, top - box.clientHeight / 3);
        }
      }
    }

    function playPause() {
      if (timer) { clearInterval(timer); timer = null; return; }
      timer = setInterval(() => { if (index >= run.steps.length - 1) playPause(); else show(index + 1); }, 500);
    }

    function jump(direction) {
      const found = direction > 0 ? closes.find((i) => i > index) : [...closes].reverse().find((i) => i < index);
      if (found !== undefined) show(found);
    }

    show(0);
    return { show: (i) => show(i), next: () => show(index + 1), previous: () => show(index - 1),
             first: () => show(0), last: () => show(run.steps.length - 1), playPause, jump,
             get index() { return index; } };
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (teach) {
      const keys = { ArrowRight: teach.next, l: teach.next, ArrowLeft: teach.previous, h: teach.previous,
                     Home: teach.first, End: teach.last, " ": teach.playPause,
                     "]": () => teach.jump(1), "[": () => teach.jump(-1) };
      if (keys[event.key]) { event.preventDefault(); keys[event.key](); return; }
    }
    if (event.key === "n") goProblem(1);
    else if (event.key === "p") goProblem(-1);
  });
})();
