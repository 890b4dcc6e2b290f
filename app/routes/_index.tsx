// "/" is the same screen as /login (000 §2).
export { action, default, loader, meta } from './_auth+/login';
