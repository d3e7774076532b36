/** One figure with its label, in a row of cards (run progress, analytics totals). */
export function Stat(props: { label: string; value: string }) {
  return (
    <div class="stat">
      <span class="stat-value">{props.value}</span>
      <span class="stat-label">{props.label}</span>
    </div>
  );
}
