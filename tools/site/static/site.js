// The report site's only script: filtering the rows of a matrix by feature
// tag and by article. The filters are kept in the address (?feature=&article=)
// so that a filtered matrix can be linked to. Without JavaScript every row shows.
"use strict";

function applyFilters(table, feature, article, counter) {
  const rows = table.tBodies[0].rows;
  let shown = 0;
  for (const row of rows) {
    const features = (row.dataset.features || "").split(" ");
    const visible = (!feature || features.includes(feature)) && (!article || row.dataset.article === article);
    row.hidden = !visible;
    if (visible) shown += 1;
  }
  counter.textContent = shown + " of " + rows.length + " articles shown";
}

function setUpFilters() {
  const table = document.getElementById("matrix");
  const featureSelect = document.getElementById("feature");
  const articleSelect = document.getElementById("article");
  const counter = document.getElementById("shown");
  if (!table || !featureSelect || !articleSelect || !counter) return;
  const params = new URLSearchParams(window.location.search);
  for (const [select, key] of [[featureSelect, "feature"], [articleSelect, "article"]]) {
    const wanted = params.get(key);
    if (wanted && Array.from(select.options).some((o) => o.value === wanted)) select.value = wanted;
  }
  const update = () => {
    applyFilters(table, featureSelect.value, articleSelect.value, counter);
    const next = new URLSearchParams();
    if (featureSelect.value) next.set("feature", featureSelect.value);
    if (articleSelect.value) next.set("article", articleSelect.value);
    const query = next.toString();
    try {
      window.history.replaceState(null, "", query ? "?" + query : window.location.pathname);
    } catch (e) {
      // some browsers refuse replaceState on file:// pages; the filters still work
    }
  };
  featureSelect.addEventListener("change", update);
  articleSelect.addEventListener("change", update);
  update();
}

document.addEventListener("DOMContentLoaded", setUpFilters);
