// The resilience map's search and collapsing. Without script the page
// shows everything; this only hides.
(function () {
	"use strict";
	var search = document.getElementById("search");
	if (!search) {
		return; // the page of a map with no entries has nothing to search
	}
	var rows = Array.from(document.querySelectorAll("tr.path"));
	var groups = Array.from(document.querySelectorAll("tbody.entry"));
	var entryNodes = Array.from(document.querySelectorAll("svg .node[data-entry]"));
	var callNodes = Array.from(document.querySelectorAll("svg .node[data-call]"));
	var shown = document.getElementById("shown");
	// Lower-case once, not on each key.
	var texts = rows.map(function (r) { return r.dataset.search.toLowerCase(); });
	var edges = {};
	document.querySelectorAll("svg .edge").forEach(function (e) { edges[e.dataset.index] = e; });

	// filter shows the rows whose text holds the search term, whatever the
	// case, with their edges, and the nodes and entry groups that still
	// have one; an empty term shows everything.
	function filter() {
		var term = search.value.toLowerCase();
		var entries = new Set(), calls = new Set(), n = 0;
		rows.forEach(function (r, i) {
			var on = texts[i].includes(term);
			r.classList.toggle("off", !on);
			var e = edges[r.dataset.index];
			if (e) {
				e.classList.toggle("off", !on);
			}
			if (on) {
				n++;
				entries.add(r.dataset.entry);
				calls.add(r.dataset.call);
			}
		});
		var all = term === "";
		entryNodes.forEach(function (g) { g.classList.toggle("off", !all && !entries.has(g.dataset.entry)); });
		callNodes.forEach(function (g) { g.classList.toggle("off", !all && !calls.has(g.dataset.call)); });
		groups.forEach(function (g) { g.classList.toggle("off", !all && !entries.has(g.dataset.entry)); });
		shown.textContent = all ? rows.length + (rows.length === 1 ? " path" : " paths")
			: n + " of " + rows.length + " paths";
	}

	function expand(group, open) {
		group.classList.toggle("collapsed", !open);
		group.querySelector(".toggle").setAttribute("aria-expanded", String(open));
	}

	function groupOf(entry) {
		return groups.find(function (g) { return g.dataset.entry === entry; });
	}

	search.addEventListener("input", filter);
	document.addEventListener("keydown", function (ev) {
		if (ev.key === "/" && document.activeElement !== search) {
			ev.preventDefault();
			search.focus();
		}
	});
	groups.forEach(function (g) {
		g.querySelector(".toggle").addEventListener("click", function () {
			expand(g, g.classList.contains("collapsed"));
		});
	});
	document.getElementById("collapse-all").addEventListener("click", function () {
		groups.forEach(function (g) { expand(g, false); });
	});
	document.getElementById("expand-all").addEventListener("click", function () {
		groups.forEach(function (g) { expand(g, true); });
	});
	// A click on an edge shows its row, one on an entry its group.
	document.querySelector("svg").addEventListener("click", function (ev) {
		var edge = ev.target.closest(".edge");
		var node = ev.target.closest(".node[data-entry]");
		var target;
		if (edge) {
			target = document.getElementById("path-" + edge.dataset.index);
			target.classList.add("flash");
			setTimeout(function () { target.classList.remove("flash"); }, 1500);
			expand(target.parentElement, true);
		} else if (node) {
			target = groupOf(node.dataset.entry);
			expand(target, true);
		}
		if (target) {
			target.scrollIntoView({block: "center", behavior: "smooth"});
		}
	});
	filter();
}());
