// api/v1.ts still imports from here: it is being reworked alongside (the route table), so its
// import moves to files/text.ts, and this file goes, once that work has landed.
export { controlCharacterOf } from '../../files/text.js';
