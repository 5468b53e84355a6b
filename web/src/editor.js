// The manifests editor: CodeMirror 6 with YAML highlighting, line numbers, search and undo (the
// basic setup), the package's problems as lint diagnostics (underline, hover, gutter marker), and
// the matched rule as highlighted lines.
import { basicSetup } from "codemirror";
import { yaml } from "@codemirror/lang-yaml";
import { forEachDiagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { Decoration, EditorView, keymap } from "@codemirror/view";
import { EditorSelection, EditorState, StateEffect, StateField } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { tags } from "@lezer/highlight";

// Token colours come from CSS variables, so one style serves the light and the dark scheme.
const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: "var(--tok-key)" },
  { tag: [tags.string, tags.special(tags.string), tags.content], color: "var(--tok-string)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--tok-atom)" },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: "var(--tok-comment)", fontStyle: "italic" },
  { tag: [tags.meta, tags.keyword, tags.typeName, tags.labelName, tags.tagName], color: "var(--tok-meta)" },
  { tag: [tags.punctuation, tags.separator, tags.squareBracket, tags.brace], color: "var(--tok-punct)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "13px", backgroundColor: "var(--editor-bg)", color: "var(--fg)" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.5" },
  ".cm-gutters": { backgroundColor: "var(--editor-gutter)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--editor-active)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--editor-active)" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": { backgroundColor: "var(--selection) !important" },
  ".cm-matched-rule": { backgroundColor: "var(--match-bg)", boxShadow: "inset 3px 0 0 var(--match)" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border)", maxWidth: "min(44em, 90vw)" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-textfield": { backgroundColor: "var(--bg)", color: "var(--fg)", border: "1px solid var(--border)" },
  ".cm-button": { backgroundImage: "none", backgroundColor: "var(--button)", color: "var(--fg)", border: "1px solid var(--border)" },
});

const setMatch = StateEffect.define();

// The matched rule: its range and its lines, kept in place while the text changes until the next
// decision (a decision for the same rule, moved by the edit, then changes nothing).
const matchField = StateField.define({
  create: () => ({ range: null, decorations: Decoration.none }),
  update(match, tr) {
    let { range, decorations } = match;
    if (tr.docChanged) {
      decorations = decorations.map(tr.changes);
      range = range && { from: tr.changes.mapPos(range.from, 1), to: tr.changes.mapPos(range.to, -1) };
    }
    for (const effect of tr.effects) {
      if (!effect.is(setMatch)) continue;
      range = effect.value;
      if (!range) return { range: null, decorations: Decoration.none };
      const doc = tr.state.doc;
      const first = doc.lineAt(Math.min(range.from, doc.length)).number;
      const last = doc.lineAt(Math.min(Math.max(range.to - 1, range.from), doc.length)).number;
      const lines = [];
      for (let n = first; n <= last; n++) {
        lines.push(Decoration.line({ class: "cm-matched-rule", attributes: { "data-matched-rule": "" } }).range(doc.line(n).from));
      }
      decorations = Decoration.set(lines);
    }
    return range === match.range && decorations === match.decorations ? match : { range, decorations };
  },
  provide: (field) => EditorView.decorations.from(field, (match) => match.decorations),
});

const TYPING = ["input", "delete", "undo", "redo", "move"];

/**
 * Creates the editor in `parent`; `onChange(text, typing, changes)` runs on every edit (`typing`:
 * by the person; `changes`: the edit, a ChangeSet).
 */
export function createEditor(parent, text, onChange) {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        yaml(),
        syntaxHighlighting(highlight),
        lintGutter(),
        matchField,
        theme,
        EditorView.lineWrapping,
        // tabindex: the scroller then has a focusable element as far as every checker can tell.
        EditorView.contentAttributes.of({ "aria-label": "Manifests", tabindex: "0" }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return;
          const typing = update.transactions.some((tr) => TYPING.some((event) => tr.isUserEvent(event)));
          onChange(update.state.doc.toString(), typing, update.changes);
        }),
      ],
    }),
  });
}

/** Replaces the whole text (a gallery example, a restored link) as one undoable change. */
export function setText(view, text) {
  view.scrollDOM.scrollTop = 0; // another text: shown from its first line
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, effects: setMatch.of(null) });
}

/** Shows `problems` ({from, to, severity, message}) as underlines, hover messages and gutter markers. */
export function showProblems(view, problems) {
  const length = view.state.doc.length;
  const clamped = problems.map((p) => ({
    ...p,
    from: Math.min(p.from, length),
    to: Math.min(Math.max(p.to, p.from), length),
  }));
  // The editor moves its diagnostics with the text: after most keystrokes they are already
  // these, and setting them again would rebuild every underline and gutter marker.
  if (!sameProblems(editorProblems(view), clamped)) view.dispatch(setDiagnostics(view.state, clamped));
}

/** The problems the editor shows, where they are now: [{from, to, severity, message}]. */
export function editorProblems(view) {
  const shown = [];
  forEachDiagnostic(view.state, (d, from, to) => shown.push({ from, to, severity: d.severity, message: d.message }));
  return shown;
}

function sameProblems(a, b) {
  if (a.length !== b.length) return false;
  const order = (x, y) => x.from - y.from || x.to - y.to || (x.message < y.message ? -1 : x.message > y.message ? 1 : 0);
  const [sa, sb] = [[...a].sort(order), [...b].sort(order)];
  return sa.every((x, i) => x.from === sb[i].from && x.to === sb[i].to && x.severity === sb[i].severity && x.message === sb[i].message);
}

/**
 * Highlights the matched rule's lines (`range` null: none), scrolling to it when it changed; the
 * same rule moved by an edit is already in place (a dispatch would make the browser lay out the
 * page again in the middle of the update).
 */
export function showMatch(view, range) {
  const shown = view.state.field(matchField).range;
  const same = range && shown && range.from === shown.from && range.to === shown.to;
  if (same || (!range && !shown)) return;
  const effects = [setMatch.of(range)];
  if (range) {
    const length = view.state.doc.length;
    const whole = EditorSelection.range(Math.min(range.to, length), Math.min(range.from, length)); // head at the start
    effects.push(EditorView.scrollIntoView(whole, { y: "nearest", yMargin: 24 }));
    // The nearest edge can be mid-line, cutting the top line shown in half: once scrolled (in one
    // of the editor's next measures, hence two frames' wait), the top line is made whole, within
    // the margin (the editor's own scroller only: the page never moves).
    const snap = { read: wholeTopLine, write: (at, v) => at != null && (v.scrollDOM.scrollTop = at) };
    requestAnimationFrame(() => requestAnimationFrame(() => view.requestMeasure(snap)));
  }
  view.dispatch({ effects });
}

/** The scroll position that shows the top line whole, or null when it is whole already. */
function wholeTopLine(view) {
  const scrollTop = view.scrollDOM.scrollTop;
  const pad = view.documentPadding.top;
  const block = view.lineBlockAtHeight(scrollTop - pad);
  const top = block.top + pad;
  return top < scrollTop - 0.5 ? top : null;
}

/** Moves the cursor to `pos` and focuses the editor (from the problems list). */
export function reveal(view, pos) {
  const at = Math.min(pos, view.state.doc.length);
  view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
  view.focus();
}

/** Offset of a 1-based line and 1-based column (in characters). */
export function offsetOf(view, line, column) {
  const doc = view.state.doc;
  const l = doc.line(Math.max(1, Math.min(line, doc.lines)));
  return Math.min(l.from + Math.max(0, (column ?? 1) - 1), l.to);
}
