extension ReportPage {
  /// The page's styles: readable from a phone's width to a desktop's, visible keyboard focus.
  static let styles = """
    :root{--ink:#1b1b1b;--muted:#555;--line:#c8c8c8;--bg:#fff;--panel:#f4f5f7;--focus:#0b57d0;
    --good:#1e7b34;--warn:#a15c00;--bad:#b3261e;font-family:system-ui,-apple-system,"Segoe UI","Noto Sans KR","Noto Sans CJK KR",
    "Apple SD Gothic Neo",sans-serif;color:var(--ink);background:var(--bg)}
    body{margin:0 auto;max-width:1280px;padding:0 16px 32px;line-height:1.45}
    h1{font-size:1.6rem;margin:16px 0 8px}h2{font-size:1.3rem;margin:32px 0 8px;border-bottom:2px solid var(--line)}
    h3{font-size:1.05rem;margin:16px 0 6px}
    a{color:#0b57d0}code{font-size:.9em;background:var(--panel);padding:0 3px;border-radius:3px}
    :focus-visible{outline:3px solid var(--focus);outline-offset:2px}
    .skip,.skip-inline{position:absolute;left:-9999px}
    .skip:focus,.skip-inline:focus{position:static;display:inline-block;background:#fff;padding:4px 8px}
    .facts{display:flex;flex-wrap:wrap;gap:4px 20px;margin:8px 0}.facts div{display:flex;gap:6px}
    .facts dt{color:var(--muted)}.facts dd{margin:0;font-weight:600}
    .outcome strong{padding:1px 6px;border-radius:4px;color:#fff}
    .outcome.good strong{background:var(--good)}.outcome.warn strong{background:var(--warn)}
    .outcome.bad strong{background:var(--bad)}
    .banner{padding:8px 12px;border-radius:6px;border:1px solid}
    .banner.bad{background:#fdecea;border-color:var(--bad)}.banner.warn{background:#fff4e0;border-color:var(--warn)}
    .banner p{margin:4px 0}.banner ul{margin:4px 0;padding-left:1.2em}
    .attention h2{font-size:1.1rem;margin:0 0 4px;border:0}.attention li{margin:6px 0}.reason{overflow-wrap:anywhere}
    nav ul{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;padding:0;margin:8px 0}
    .filter{margin:8px 0}.filter select{font-size:1rem;margin-left:8px;max-width:100%}
    .map-layout{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:16px;align-items:start}
    .map{margin:0}.map svg{width:100%;height:auto;max-height:80vh;background:#eaf3fb;border:1px solid var(--line)}
    .defs{position:absolute;width:0;height:0;overflow:hidden}
    .land{fill:#f3efe6;stroke:#8a8373;stroke-width:.8}.inset .land{stroke-width:.25}
    .inset-frame{fill:none;stroke:var(--focus);stroke-width:1;stroke-dasharray:3 2}
    .map-side-column{display:flex;flex-direction:column;gap:16px;min-width:0}
    .map figcaption{overflow-wrap:anywhere}
    .mark{cursor:pointer}
    .mark:focus,.mark:hover{stroke:#000;stroke-width:3;outline:none}
    .dimmed .mark{opacity:.25}.dimmed .mark.lit{opacity:1;stroke:#000;stroke-width:2.5}
    .filtered-out{display:none}
    .map-side{background:var(--panel);padding:8px 12px;border-radius:6px;max-height:80vh;overflow:auto}
    .legend,.unlocated{list-style:none;padding:0;margin:0}.legend li{margin:2px 0}
    .swatch{vertical-align:middle;flex:none}.unlocated li{margin:4px 0}
    .scroll{overflow-x:auto;max-width:100%}
    table{border-collapse:collapse}th,td{border:1px solid var(--line);padding:4px 6px;vertical-align:top}
    table.brands,table.problems{width:100%}.brands td.error,.problems td.message{min-width:10em;overflow-wrap:anywhere}
    thead th{background:var(--panel);text-align:left}.num{text-align:right;font-variant-numeric:tabular-nums}
    .brands th[scope=row]{text-align:left}.brands th[scope=row] code{display:inline-block}
    .brands .data-source{display:block;font-weight:400;color:var(--muted);overflow-wrap:anywhere}
    .brands thead th,.problems thead th{font-size:.85rem}.brands td{font-size:.95rem}
    .status.good{color:var(--good)}.status.warn{color:var(--warn);font-weight:700}
    .status.bad{color:var(--bad);font-weight:700}.kind{white-space:nowrap;margin-right:6px}
    .months{display:flex;flex-wrap:wrap;gap:16px}
    .month caption{font-weight:700;text-align:left;padding:4px 0}
    .month th{text-align:center;width:3.6em}.month td{height:3.2em;width:3.6em;padding:2px;position:relative}
    .month .day{display:block;font-size:.75rem;color:var(--muted)}.month .closed{font-weight:700}
    .month .unknown-count{font-size:.7rem;color:#5b2c8f;background:#efe6fa;border-radius:3px;padding:0 2px;
    white-space:nowrap}.month summary,.month .cell{white-space:nowrap}
    .month .expected-count{font-size:.7rem;color:#6b5a1e;background:#fbf3d5;border:1px dashed #c9a93c;
    border-radius:3px;padding:0 2px;white-space:nowrap}.day-list li.expected{color:#6b5a1e;font-style:italic}
    .month td.outside,.month td.pad{background:#fafafa}.month td.today{box-shadow:inset 0 0 0 2px var(--focus)}
    .month summary{cursor:pointer;list-style:none}.month summary::-webkit-details-marker{display:none}
    .day-list{position:absolute;z-index:5;left:0;top:100%;min-width:16em;max-height:22em;overflow:auto;
    background:#fff;color:var(--ink);text-align:left;white-space:normal;border:1px solid var(--ink);padding:6px 10px;
    box-shadow:0 4px 12px rgba(0,0,0,.25)}
    .month td:nth-child(n+5) .day-list{left:auto;right:0}.month td[id]{scroll-margin-top:5em}
    .day-list ul{margin:0;padding-left:1.2em}.day-list p{margin:0 0 4px;font-weight:600}
    .heat-0{background:#fff}.heat-1{background:#fde0c5}.heat-2{background:#f9a870}
    .heat-3{background:#e4572e;color:#fff}.heat-4{background:#9e1b1b;color:#fff}
    .heat-3 .day,.heat-4 .day{color:#fff}
    .heat-legend{display:flex;flex-wrap:wrap;gap:4px 12px;list-style:none;padding:0}
    .heat-legend span{display:inline-block;min-width:2.2em;text-align:center;border:1px solid var(--line)}
    .diff-brand ul{padding-left:1.2em}.source-texts{font-size:.9em;color:var(--muted)}
    .problems td:nth-child(-n+4){white-space:nowrap}
    tr.error td:first-child{color:var(--bad);font-weight:700}tr.warning td:first-child{color:var(--warn)}
    footer{margin-top:32px;color:var(--muted);font-size:.85rem}
    @media (max-width:760px){.map-layout{grid-template-columns:1fr}.map-side{max-height:none}
    .month td{width:2.4em;height:3em}.month th{width:2.4em}body{padding:0 8px 24px}
    .months{gap:12px}.month{width:100%;table-layout:fixed}.month td,.month th{width:auto}
    .month summary,.month .cell{white-space:normal}.month .unknown-count{display:inline-block}
    table.brands,table.problems,table.brands>*,table.problems>*,table.brands tr,table.problems tr{display:block;width:auto}
    table.brands thead,table.problems thead{display:none}
    table.brands tr,table.problems tr{border:1px solid var(--line);border-radius:6px;margin:0 0 10px;padding:4px 8px}
    table.brands th,table.brands td,table.problems td{display:grid;grid-template-columns:9em minmax(0,1fr);gap:8px;
    border:0;padding:2px 0;text-align:left;white-space:normal;min-width:0;overflow-wrap:anywhere}
    table.brands th{display:block;font-size:1.05em}table.brands td:empty{display:none}
    table.brands td::before,table.problems td::before{color:var(--muted);font-size:.85em}
    .brands td:nth-child(2)::before{content:"Status"}.brands td:nth-child(3)::before{content:"Freshness"}
    .brands td:nth-child(4)::before{content:"Branches"}.brands td:nth-child(5)::before{content:"Change"}
    .brands td:nth-child(6)::before{content:"With coordinates"}.brands td:nth-child(7)::before{content:"Without"}
    .brands td:nth-child(8)::before{content:"Some days unknown"}
    .brands td:nth-child(9)::before{content:"Every day unknown"}.brands td:nth-child(10)::before{content:"Shut"}
    .brands td:nth-child(11)::before{content:"Warnings by kind"}.brands td:nth-child(12)::before{content:"Error"}
    .problems td:nth-child(1)::before{content:"Severity"}.problems td:nth-child(2)::before{content:"Kind"}
    .problems td:nth-child(3)::before{content:"Brand"}.problems td:nth-child(4)::before{content:"Branch"}
    .problems td:nth-child(5)::before{content:"Message"}
    .problems td:nth-child(-n+4){white-space:normal}}
    """

  /// The page's script: the brand filter, the map's info line, a day of the calendar marking its
  /// branches on the map and the inset, and a link to a day (`#day-2026-11-22`) opening it. Any
  /// script error is written into the page, so it cannot go unseen.
  static let script = """
    (function () {
      "use strict";
      window.addEventListener("error", function (event) {
        var box = document.getElementById("script-errors");
        if (!box) {
          box = document.createElement("p");
          box.id = "script-errors";
          box.className = "banner bad";
          box.setAttribute("role", "alert");
          document.body.insertBefore(box, document.body.firstChild);
        }
        box.textContent += "Script error: " + event.message + " ";
      });
      var marks = Array.prototype.slice.call(document.querySelectorAll("[data-branch-id], [data-inset-branch-id]"));
      var maps = Array.prototype.slice.call(document.querySelectorAll("#map figure svg"));
      var mapInfo = document.getElementById("map-info");
      var dayInfo = document.getElementById("day-info");
      var initialInfo = mapInfo.textContent;
      marks.forEach(function (mark) {
        var title = mark.querySelector("title");
        var text = title ? title.textContent : mark.getAttribute("data-branch-id");
        var show = function () { mapInfo.textContent = text; };
        mark.addEventListener("focus", show);
        mark.addEventListener("mouseenter", show);
        mark.addEventListener("blur", function () { mapInfo.textContent = initialInfo; });
      });
      var select = document.getElementById("brand-filter");
      document.getElementById("brand-filter-box").hidden = false;
      select.addEventListener("change", function () {
        var brand = select.value;
        document.querySelectorAll("main [data-brand]").forEach(function (element) {
          var other = brand !== "" && element.getAttribute("data-brand") !== brand;
          element.classList.toggle("filtered-out", other);
        });
      });
      document.querySelectorAll(".js-only").forEach(function (element) { element.hidden = false; });
      var openDay = null;
      function clearDay() {
        maps.forEach(function (svg) { svg.classList.remove("dimmed"); });
        marks.forEach(function (mark) { mark.classList.remove("lit"); });
        dayInfo.hidden = true;
        openDay = null;
      }
      document.querySelectorAll("td[data-date] details").forEach(function (details) {
        details.addEventListener("toggle", function () {
          if (!details.open) {
            if (openDay === details) { clearDay(); }
            return;
          }
          if (openDay && openDay !== details) { openDay.open = false; }
          openDay = details;
          var ids = {};
          details.querySelectorAll("[data-closed-id]").forEach(function (item) {
            ids[item.getAttribute("data-closed-id")] = true;
          });
          var shown = 0;
          marks.forEach(function (mark) {
            var lit = ids[mark.getAttribute("data-branch-id") || mark.getAttribute("data-inset-branch-id")] === true;
            mark.classList.toggle("lit", lit);
            if (lit && mark.hasAttribute("data-branch-id")) { shown += 1; }
          });
          maps.forEach(function (svg) { svg.classList.add("dimmed"); });
          var cell = details.closest("td");
          dayInfo.textContent = cell.getAttribute("data-date") + ": " + cell.getAttribute("data-closed") +
            " branches closed, " + shown + " of them marked on the map.";
          dayInfo.hidden = false;
        });
      });
      // A link to a day (report.html#day-2026-11-22) opens it.
      function openLinkedDay() {
        var match = /^#day-(\\d{4}-\\d{2}-\\d{2})$/.exec(window.location.hash);
        var cell = match && document.getElementById("day-" + match[1]);
        var details = cell && cell.querySelector("details");
        if (details) { details.open = true; }
      }
      openLinkedDay();
      window.addEventListener("hashchange", openLinkedDay);
      document.addEventListener("keydown", function (event) {
        if (event.key === "Escape" && openDay) { openDay.open = false; clearDay(); }
      });
      document.documentElement.setAttribute("data-script", "ready");
    })();
    """
}
