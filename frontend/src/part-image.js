// The part forms' script (Add parts, Edit part; no React): the image preview of lib/preview.js.
// Kept out of site.js, which every page loads.
import { watchPreviews } from "./lib/preview.js";

watchPreviews();
