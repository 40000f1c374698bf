/** What a page downloads with `start`: it and every file it imports statically, from an esbuild metafile's `outputs`. */
export function staticClosure(outputs, start) {
  const seen = new Set();
  const visit = (path) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const i of outputs[path].imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(start);
  return seen;
}
