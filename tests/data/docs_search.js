// Search a built MkDocs site as its search worker does (search/worker.js): the lunr index built
// from search/search_index.json with the languages of its config, then each query of argv.
//   node docs_search.js SITE_DIR QUERY...   prints {"QUERY": [{"location": ..., "title": ...}, ...]}
const path = require("path");
const fs = require("fs");

const dir = path.resolve(process.argv[2], "search");
const data = JSON.parse(fs.readFileSync(path.join(dir, "search_index.json"), "utf8"));
const lunr = require(path.join(dir, "lunr.js"));
const lang = (data.config && data.config.lang && data.config.lang.length) ? data.config.lang : ["en"];
if (lang.length > 1 || lang[0] !== "en") {
  require(path.join(dir, "lunr.stemmer.support.js"))(lunr);
  if (lang.length > 1) require(path.join(dir, "lunr.multi.js"))(lunr);
  for (const code of lang) if (code !== "en") require(path.join(dir, "lunr." + code + ".js"))(lunr);
}
if (data.config && data.config.separator && data.config.separator.length) {
  lunr.tokenizer.separator = new RegExp(data.config.separator);
}
const documents = {};
const index = lunr(function () {
  if (lang.length === 1 && lang[0] !== "en" && lunr[lang[0]]) this.use(lunr[lang[0]]);
  else if (lang.length > 1) this.use(lunr.multiLanguage.apply(null, lang));
  this.field("title");
  this.field("text");
  this.ref("location");
  for (const doc of data.docs) {
    this.add(doc);
    documents[doc.location] = doc;
  }
});
const found = {};
for (const query of process.argv.slice(3)) {
  found[query] = index.search(query).map((r) => ({ location: r.ref, title: documents[r.ref].title }));
}
process.stdout.write(JSON.stringify(found));
