/** A warning that something did not go as asked (e.g. the model could not re-run); nothing when null. */
export function WarnNotice({ text }: { text: string | null }) {
  return text ? (
    <p className="notice notice-warn" role="status">
      {text}
    </p>
  ) : null;
}
