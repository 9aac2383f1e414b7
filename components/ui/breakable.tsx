import { Fragment } from "react";

// Long ids (order numbers, transaction ids, grant ids, actors like staff:ops@example.com) wrap only
// where a person would split them: after a separator. CSS offers no "break only after these
// characters" rule — `overflow-wrap: anywhere` splits mid-token, `break-all` anywhere at all — so
// the separators get a <wbr> (a break opportunity that adds no character: copying the id gives it
// back unchanged). Used for every id a table or a header shows.
const AFTER_SEPARATOR = /(?<=[-_:/.@|])/;

/** Pieces of an id, each ending just after a separator. */
export function idPieces(text: string): string[] {
  return text.split(AFTER_SEPARATOR).filter((piece) => piece !== "");
}

export function Breakable({ text }: { text: string }) {
  const pieces = idPieces(text);
  return (
    <>
      {pieces.map((piece, i) => (
        <Fragment key={i}>
          {piece}
          {i < pieces.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
