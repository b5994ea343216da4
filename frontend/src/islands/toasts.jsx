// Server-side (Django) messages after a redirect, shown as the same toasts as the islands'.
import { useEffect } from "react";
import { mountIslands } from "../lib/mount.jsx";
import { notify } from "../lib/toasts.jsx";

function Toasts({ messages = [] }) {
  useEffect(() => {
    for (const { text, level } of messages) notify(text, level, { toastId: text });
  }, [messages]);
  return null;
}

mountIslands({ toasts: Toasts });
