// Finds guide sentences that attribute to the reference a fact the contracts mark as our own assumption: a clause
// that says "the reference says / names / requires / lists..." (or "the reference's rule") and also names one of an
// assumption's keywords. A clause that denies ("the reference publishes no...") or another clause of the same sentence
// ("... but it does not publish the algorithm") is not an attribution; an aside in brackets right after an attributing
// clause is ("the reference publishes the void (while the transaction is voidable)"), unless it denies or says whose
// reading it is ("(our assumption: ...)").

export interface KeywordedAssumption {
  key: string;
  keywords: string[];
}

export interface Attribution {
  guide: string;
  key: string;
  keyword: string;
  sentence: string;
}

const verbs = [
  'says', 'said', 'names', 'requires', 'lists', 'states', 'defines', 'documents', 'publishes', 'gives', 'shows',
  'sets', 'calls', 'describes', 'specifies', 'promises', 'expects', 'treats', 'tells', 'guarantees', 'recommends',
];
const attribution = new RegExp(
  String.raw`\bthe reference(?:'s\s+(?:rules?|words|answer)\b|\s+(?:also\s+|clearly\s+)?(?:${verbs.join('|')})\b(?!\s+(?:no|neither|nothing|none|only)\b))`,
  'i',
);
// Clauses of one sentence: a denial after "but" or in brackets belongs to its own clause.
const clauseBreak = /\s*(?:[;()]|,?\s+\b(?:but|while|whereas|although|though)\b)\s*/i;

/** The prose of a Markdown guide as units: paragraphs, table rows and list items (wrapped lines joined), code dropped. */
export function unitsOf(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/<!--[\s\S]*?-->/g, '');
  const units: string[] = [];
  for (const block of prose.split(/\n\s*\n/)) {
    const lines = block.split('\n');
    const itemised = lines.some((line) => /^\s*(?:\||[-*] |\d+\. |> )/.test(line));
    if (!itemised) units.push(lines.join(' '));
    else {
      // A list item or quote may wrap onto indented or `>` lines: join those to their item.
      for (const line of lines) {
        if (/^\s*(?:\||[-*] |\d+\. )/.test(line) || units.length === 0) units.push(line);
        else units[units.length - 1] += ` ${line.replace(/^\s*>\s?/, '')}`;
      }
    }
  }
  return units.map((unit) => unit.replace(/[`*_]/g, '').replace(/\s+/g, ' ').trim()).filter(Boolean);
}

/** The prose of a Markdown guide as sentences (of its paragraphs, table rows and list items). */
export function sentencesOf(markdown: string): string[] {
  return unitsOf(markdown)
    .flatMap((unit) => unit.split(/(?<=[.!?][»"”]?)\s+(?=[A-Z"(«])/))
    .map((s) => s.trim())
    .filter(Boolean);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A keyword matches at the start of a word and may end inside one: "redeliver" finds "redelivered".
const phrase = (keyword: string) => new RegExp(`(?<!\\w)${escape(keyword).replace(/\s+/g, '\\s+')}`, 'i');

// An aside that says it is not the reference's word.
const disowned = /\b(?:not|no|never|neither|nor|without|nothing|none|silent|our\s+(?:assumption|reading|choice|advice))\b/i;

/** The attributing clauses of a sentence: each clause that attributes, and each bracketed aside that continues one. */
export function attributedClauses(sentence: string): string[] {
  const found: string[] = [];
  let lastAttributes = false;
  for (const piece of sentence.split(/(\([^()]*\))/)) {
    if (/^\(.*\)$/.test(piece)) {
      const aside = piece.slice(1, -1);
      if (lastAttributes && !disowned.test(aside)) found.push(aside);
      else found.push(...aside.split(clauseBreak).filter((clause) => attribution.test(clause)));
      continue; // the text after the brackets goes on with the clause before them
    }
    const clauses = piece.split(clauseBreak);
    clauses.forEach((clause, i) => {
      const attributes = attribution.test(clause);
      if (attributes) found.push(clause);
      // Only the clause that ends the piece touches the next bracket; an empty one leaves the state as it was.
      if (i < clauses.length - 1 || clause.trim() !== '') lastAttributes = attributes;
    });
  }
  return found;
}

/** Every clause of the guides that attributes one of the assumptions' keywords to the reference. */
export function findAttributions(guides: { source: string; markdown: string }[], assumptions: KeywordedAssumption[]): Attribution[] {
  const found: Attribution[] = [];
  for (const guide of guides) {
    for (const sentence of sentencesOf(guide.markdown)) {
      // The reference's own words, quoted «…», are checked against the reference itself (reference-quotes.ts).
      for (const clause of attributedClauses(sentence.replace(/«[^«»]*»/g, '«…»'))) {
        for (const { key, keywords } of assumptions) {
          const keyword = keywords.find((k) => phrase(k).test(clause));
          if (keyword) found.push({ guide: guide.source, key, keyword, sentence });
        }
      }
    }
  }
  return found;
}

// What the quote check (reference-quotes.ts) counts as saying what the reference says: the verbs above and more,
// "only" included ("the reference says only..." is a claim about what it says), and the reference's rules, words,
// table, list or example. A denial ("publishes no", "says nothing") is not one.
const claimVerbs = [
  ...verbs, 'writes', 'asks', 'allows', 'forbids', 'notes', 'mentions', 'warns', 'advises', 'explains', 'adds', 'limits',
  'fixes', 'offers', 'contradicts', 'puts', 'places', 'counts', 'uses', 'means', 'marks', 'reserves', 'permits', 'insists',
  'suggests', 'implies', 'reads', 'talks', 'refers', 'demands', 'wants', 'prefers', 'considers', 'defers', 'repeats',
];
const claim = new RegExp(
  String.raw`\b(?:the|its|their)\s+(?:(?:payments|file[ -]exchange|service's|operator's)\s+)?reference(?:'s\s+(?:(?:own|client|receiver|retry|\w+ing)\s+)?(?:rules?|words|answer|table|list|example|examples|advice|steps?|order|wording|meaning|definition|promise|advice|view|term)\b|\s+(?:also\s+|clearly\s+|itself\s+|then\s+)?(?:${claimVerbs.join('|')})\b(?!\s+(?:no|neither|nothing|none)\b))|\b(?:according\s+to|per)\s+the\s+reference\b`,
  'i',
);

/** Whether a sentence says what the reference says (in any of its clauses). */
export const attributes = (sentence: string): boolean => claim.test(sentence);
