import type { EditorModel, Place } from './model.js';

/** A message shown next to the part of the screen whose action it answers. */
export function NoticeAt({ model, place }: { model: EditorModel; place: Place }) {
  const notice = model.notice.value;
  const here = notice?.place === place ? notice : null;
  return (
    <p
      class={`notice${here ? ` notice-${here.tone}` : ''}`}
      role={here?.tone === 'error' ? 'alert' : 'status'}
      aria-live="polite"
      data-place={place}
    >
      {here?.text}
    </p>
  );
}
