"""/blogs: five interview questions about React, answered."""

from dataclasses import dataclass


@dataclass(frozen=True)
class BlogPost:
    question: str
    answer: tuple[str, ...]  # paragraphs


BLOG_INTRO = (
    "Short answers to questions that come up in almost every front-end interview about React."
)
BLOG_POSTS = (
    BlogPost(
        question="How will you improve the performance of a React application?",
        answer=(
            "Start by measuring: the React DevTools Profiler shows which components render, "
            "how often and how long they take, so you fix real bottlenecks instead of guessing.",
            "Then cut unnecessary work. Keep state as close as possible to the components "
            "that use it, so an update re-renders a small subtree. Wrap expensive pure "
            "components in React.memo, and keep the props they receive stable with useMemo "
            "and useCallback. Give list items stable keys, and virtualise long lists so only "
            "the visible rows exist in the DOM. Split the bundle with React.lazy and Suspense "
            "so each route loads only its own code, optimise and lazy-load images, and always "
            "ship the production build.",
        ),
    ),
    BlogPost(
        question="What are the different ways to manage a state in a React application?",
        answer=(
            "Local state with useState, or useReducer when the update logic is complex, "
            "covers most needs: it belongs to one component and its children receive it as "
            "props. When siblings need the same data, lift the state up to their closest "
            "common parent.",
            "For values many components read, such as the signed-in user or a theme, the "
            "Context API avoids passing props through every level. Larger applications often "
            "use an external store such as Redux Toolkit, Zustand or Jotai. Data that comes "
            "from a server is best handled by a server-state library like TanStack Query or "
            "SWR, which caches and refetches it. Finally, the URL (route parameters and the "
            "query string) and form libraries hold state of their own.",
        ),
    ),
    BlogPost(
        question="How does prototypical inheritance work?",
        answer=(
            "Every JavaScript object has a hidden link, [[Prototype]], to another object or "
            "to null. When you read a property the object does not have itself, the engine "
            "follows that link and looks on the prototype, then on the prototype's prototype, "
            "until it finds the property or reaches null and returns undefined. This "
            "sequence of objects is the prototype chain.",
            "Object.create(proto) makes an object whose prototype is proto. A function called "
            "with new gives the new object the function's prototype property as its "
            "prototype, so all instances share one copy of each method. The class syntax is "
            "a cleaner way to write the same mechanism. Assigning a property normally creates "
            "an own property on the object, which then shadows the inherited one.",
        ),
    ),
    BlogPost(
        question="Why should you never set the state directly in React?",
        answer=(
            "React only re-renders when you tell it to, through setState or the setter "
            "returned by useState. Writing this.state.count = 5, or pushing onto an array "
            "held in state, changes the data silently: nothing re-renders, and the screen "
            "falls out of step with the data.",
            "React also compares the old and new state by reference. If you mutate an "
            "object and pass the same object back, React sees no change and skips the "
            "update, and React.memo or PureComponent children miss it too. Because updates "
            "are batched and may be applied later, a direct change can also be overwritten "
            "by a pending update. Always create a new object or array, and use the updater "
            "form, setCount(c => c + 1), when the next value depends on the previous one.",
        ),
    ),
    BlogPost(
        question="What is a unit test? Why should we write unit tests?",
        answer=(
            "A unit test checks the smallest testable piece of code, such as a function, a "
            "custom hook or a single component, in isolation. It gives the unit a known "
            "input, replaces slow or outside dependencies like network calls with fakes, and "
            "asserts the output or behaviour. In React projects this usually means Jest or "
            "Vitest with React Testing Library.",
            "Unit tests run in milliseconds, so they give fast feedback while you code and in "
            "continuous integration. They catch regressions the moment a change breaks "
            "something that used to work, document how each piece is meant to behave, and "
            "let you refactor with confidence. Code that is easy to unit-test also tends to "
            "be better designed: small, focused and loosely coupled.",
        ),
    ),
)
