// After delivery (issue 25), on one line of a delivered order: 'Report an issue' (a disclosure with the form: kind, a
// note with its counter, an optional photo), then the report and its outcome. Not an island by itself: OrderView
// renders it for each line of the order page's island, which hands it the order the API answers back.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { browserOrders } from '../client/api.ts';
import { apiErrorMessage } from '../lib/api/errors.ts';
import {
  ISSUE_KIND_LABELS,
  ISSUE_KIND_VALUES,
  ISSUE_NOTE_LIMITS,
  ISSUE_PHOTO_TYPES,
  issueOutcomeText,
  MAX_ISSUE_PHOTO_BYTES,
  returnsClosedText,
  shortDay,
  type IssueKindValue,
} from '../lib/order-issues.ts';
import type { OrderDto } from '../server/order-schemas.ts';

type Line = OrderDto['lines'][number];

const PHOTO_MB = MAX_ISSUE_PHOTO_BYTES / 1024 / 1024;

/**
 * A photo only the shopper's token opens (issue 32): fetched through the API client, shown from memory. An <img src>
 * cannot send the token, and a link that opened without it would open for anyone who has it.
 */
function usePhoto(url: string | null): string | undefined {
  const [shown, setShown] = useState<string>();
  useEffect(() => {
    if (!url) return;
    let objectUrl: string | undefined;
    let gone = false;
    browserOrders
      .issuePhoto(url)
      .then((blob) => {
        if (gone) return;
        objectUrl = URL.createObjectURL(blob);
        setShown(objectUrl);
      })
      .catch((error: unknown) => console.error('Cannot show the photo', error));
    return () => {
      gone = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return shown;
}

function IssuePhoto({ issue }: { issue: NonNullable<Line['issue']> }) {
  const [open, setOpen] = useState(false);
  const thumbnail = usePhoto(issue.thumbnailUrl);
  const photo = usePhoto(open ? issue.photoUrl : null);
  const alt = `Your photo of the ${ISSUE_KIND_LABELS[issue.kind].toLowerCase()} item`;
  return (
    <>
      <button type="button" className="line-issue-photo" aria-expanded={open} onClick={() => setOpen(!open)}>
        {thumbnail ? <img src={thumbnail} alt={alt} width="72" height="72" /> : <span className="line-issue-photo-wait">{alt}</span>}
      </button>
      {open && photo && <img className="line-issue-photo-large" src={photo} alt={`${alt}, large`} data-testid="line-issue-photo-large" />}
    </>
  );
}

function IssueReport({ issue, timeZone }: { issue: NonNullable<Line['issue']>; timeZone: string }) {
  return (
    <div className={`line-issue line-issue-${issue.outcome}`} data-testid="line-issue">
      <p>
        <strong>{ISSUE_KIND_LABELS[issue.kind]}</strong> reported on {shortDay(issue.createdAt, timeZone)}
        {issue.note && <>: “{issue.note}”</>}
      </p>
      {issue.photoUrl && <IssuePhoto issue={issue} />}
      <p className="line-issue-outcome" data-testid="line-issue-outcome" role="status">
        {issueOutcomeText(issue, timeZone)}
        {issue.settleNote && <> — {issue.settleNote}</>}
      </p>
    </div>
  );
}

function ReportForm({ order, line, onReported }: { order: OrderDto; line: Line; onReported: (order: OrderDto) => void }) {
  const id = useId();
  const [kind, setKind] = useState<IssueKindValue | ''>('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const photoRef = useRef<HTMLInputElement>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!kind) return setProblem('Please choose what is wrong.');
    const photo = photoRef.current?.files?.[0];
    if (photo && !(ISSUE_PHOTO_TYPES as readonly string[]).includes(photo.type)) return setProblem('The photo must be a JPEG, PNG or WebP picture.');
    if (photo && photo.size > MAX_ISSUE_PHOTO_BYTES) return setProblem(`The photo must be at most ${PHOTO_MB} MB.`);
    setBusy(true);
    setProblem('');
    try {
      const photoId = photo ? (await browserOrders.uploadIssuePhoto(photo)).photoId : null;
      onReported(await browserOrders.reportIssue(order.id, { orderLineId: line.orderLineId, kind, note, photoId }));
    } catch (error) {
      console.error('Cannot report the issue', error);
      setProblem(apiErrorMessage(error, 'The issue could not be reported. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="line-issue-form" onSubmit={(e) => void submit(e)} noValidate>
      <fieldset>
        <legend>What is wrong with {line.name}?</legend>
        <div className="line-issue-kinds">
          {ISSUE_KIND_VALUES.map((value) => (
            <label key={value}>
              <input type="radio" name={`${id}-kind`} value={value} checked={kind === value} onChange={() => setKind(value)} required />{' '}
              {ISSUE_KIND_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <label htmlFor={`${id}-note`}>Note (optional)</label>
      <textarea
        id={`${id}-note`}
        value={note}
        maxLength={ISSUE_NOTE_LIMITS.max}
        rows={3}
        aria-describedby={`${id}-count`}
        onChange={(e) => setNote(e.target.value)}
      />
      <p id={`${id}-count`} className="field-hint" aria-live="polite" data-testid="issue-note-count">
        {note.length} of {ISSUE_NOTE_LIMITS.max} characters
      </p>
      <label htmlFor={`${id}-photo`}>Photo (optional: JPEG, PNG or WebP, up to {PHOTO_MB} MB)</label>
      <input id={`${id}-photo`} ref={photoRef} type="file" accept={ISSUE_PHOTO_TYPES.join(',')} />
      {problem && (
        <p className="form-error" role="alert" data-testid="issue-problem">
          {problem}
        </p>
      )}
      <button type="submit" className="button" disabled={busy} aria-disabled={busy || undefined}>
        {busy ? 'Sending…' : 'Send the report'}
      </button>
    </form>
  );
}

/** The line's report, or the form to make one while the return window is open; nothing before delivery. */
export function LineIssue({ order, line, onReported }: { order: OrderDto; line: Line; onReported: (order: OrderDto) => void }) {
  if (line.issue) return <IssueReport issue={line.issue} timeZone={order.timeZone} />;
  if (order.status !== 'delivered' || !order.returnsUntil) return null;
  if (Date.now() > new Date(order.returnsUntil).getTime()) {
    return <p className="muted line-issue-closed">{returnsClosedText(order.returnsUntil, order.timeZone)}</p>;
  }
  return (
    <details className="line-issue-report">
      <summary>Report an issue</summary>
      <p className="muted">You can report a problem with this item until {shortDay(order.returnsUntil, order.timeZone)}.</p>
      <ReportForm order={order} line={line} onReported={onReported} />
    </details>
  );
}
