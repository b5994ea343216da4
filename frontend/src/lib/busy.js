// What components/AsyncButton.jsx does with a click: ask first when the action needs it, be busy
// while it runs, hand its failure on.

// The one question asked before anything is deleted, refunded or removed.
export const CONFIRM = "Are you sure?";

/** Run `action()`: with `confirm`, only once the person said yes to "Are you sure?"; setBusy(true)
 * until it settles; a failure goes to onFailure. */
export async function runAction(action, { confirm = false, setBusy, onFailure }) {
  if (confirm && !window.confirm(CONFIRM)) return;
  setBusy(true);
  try {
    await action();
  } catch (error) {
    onFailure(error);
  } finally {
    setBusy(false);
  }
}
