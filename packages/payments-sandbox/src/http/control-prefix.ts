/** Where the sandbox's control interface lives, beside the API (a module of its own, so that a browser bundle of the control client takes no Node module with it). */
export const controlPrefix = '/__sandbox';
