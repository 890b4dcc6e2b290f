// A tiny arithmetic expression language for the demo reading curves. A curve is written once
// as a tree of these nodes; `evaluate` runs it in TypeScript (the twin used to plan alerts and
// in unit tests) and `compileSql` turns the very same tree into a PostgreSQL expression that
// generates millions of readings in the database. Both sides use IEEE doubles with the same
// operation order, so they agree up to the last bit of sin/exp (libm versus V8), far below the
// 0.1 °C the readings are rounded to.

export type Num =
  | { readonly op: 'const'; readonly value: number }
  | { readonly op: 'var'; readonly name: string }
  | { readonly op: 'add' | 'sub' | 'mul' | 'div' | 'max' | 'min'; readonly a: Num; readonly b: Num }
  | { readonly op: 'sin' | 'exp' | 'floor'; readonly a: Num }
  | { readonly op: 'if'; readonly cond: Bool; readonly then: Num; readonly else: Num };

export type Bool =
  | { readonly op: 'lt' | 'le' | 'eq'; readonly a: Num; readonly b: Num }
  | { readonly op: 'and'; readonly a: Bool; readonly b: Bool };

type NumLike = Num | number;

const num = (x: NumLike): Num => (typeof x === 'number' ? { op: 'const', value: x } : x);

export const c = (value: number): Num => ({ op: 'const', value });
export const v = (name: string): Num => ({ op: 'var', name });

function fold(op: 'add' | 'mul', xs: NumLike[]): Num {
  if (xs.length === 0) throw new Error(`${op} needs at least one operand`);
  return xs.slice(1).reduce<Num>((a, b) => ({ op, a, b: num(b) }), num(xs[0]));
}

export const add = (...xs: NumLike[]): Num => fold('add', xs);
export const mul = (...xs: NumLike[]): Num => fold('mul', xs);
export const sub = (a: NumLike, b: NumLike): Num => ({ op: 'sub', a: num(a), b: num(b) });
export const div = (a: NumLike, b: NumLike): Num => ({ op: 'div', a: num(a), b: num(b) });
export const max = (a: NumLike, b: NumLike): Num => ({ op: 'max', a: num(a), b: num(b) });
export const min = (a: NumLike, b: NumLike): Num => ({ op: 'min', a: num(a), b: num(b) });
export const sin = (a: NumLike): Num => ({ op: 'sin', a: num(a) });
/** e^a, with a clamped at -60: PostgreSQL raises an error when exp() underflows to zero. */
export const exp = (a: NumLike): Num => ({ op: 'exp', a: num(a) });
export const floor = (a: NumLike): Num => ({ op: 'floor', a: num(a) });
export const iff = (cond: Bool, then: NumLike, otherwise: NumLike): Num => ({ op: 'if', cond, then: num(then), else: num(otherwise) });
export const lt = (a: NumLike, b: NumLike): Bool => ({ op: 'lt', a: num(a), b: num(b) });
export const le = (a: NumLike, b: NumLike): Bool => ({ op: 'le', a: num(a), b: num(b) });
export const eq = (a: NumLike, b: NumLike): Bool => ({ op: 'eq', a: num(a), b: num(b) });
export const and = (a: Bool, b: Bool): Bool => ({ op: 'and', a, b });

/** x - floor(x), in [0, 1). */
export const fract = (a: NumLike): Num => sub(a, floor(a));
/** a mod b in [0, b) for b > 0. */
export const mod = (a: NumLike, b: NumLike): Num => sub(a, mul(b, floor(div(a, b))));
export const clamp = (a: NumLike, lo: NumLike, hi: NumLike): Num => max(lo, min(hi, a));

const EXP_FLOOR = -60;

export type Env = (name: string) => number;

export function evaluate(node: Num, env: Env): number {
  switch (node.op) {
    case 'const':
      return node.value;
    case 'var':
      return env(node.name);
    case 'add':
      return evaluate(node.a, env) + evaluate(node.b, env);
    case 'sub':
      return evaluate(node.a, env) - evaluate(node.b, env);
    case 'mul':
      return evaluate(node.a, env) * evaluate(node.b, env);
    case 'div':
      return evaluate(node.a, env) / evaluate(node.b, env);
    case 'max':
      return Math.max(evaluate(node.a, env), evaluate(node.b, env));
    case 'min':
      return Math.min(evaluate(node.a, env), evaluate(node.b, env));
    case 'sin':
      return Math.sin(evaluate(node.a, env));
    case 'exp':
      return Math.exp(Math.max(evaluate(node.a, env), EXP_FLOOR));
    case 'floor':
      return Math.floor(evaluate(node.a, env));
    case 'if':
      return test(node.cond, env) ? evaluate(node.then, env) : evaluate(node.else, env);
  }
}

export function test(node: Bool, env: Env): boolean {
  switch (node.op) {
    case 'lt':
      return evaluate(node.a, env) < evaluate(node.b, env);
    case 'le':
      return evaluate(node.a, env) <= evaluate(node.b, env);
    case 'eq':
      return evaluate(node.a, env) === evaluate(node.b, env);
    case 'and':
      return test(node.a, env) && test(node.b, env);
  }
}

/** How a variable reads in SQL (a column reference); every variable must be a float8. */
export type SqlNames = (name: string) => string;

function sqlNumber(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`Cannot compile ${value} to SQL`);
  // String() gives the shortest text that reads back as the same double, in JS and in PostgreSQL.
  return `(${String(value)})::float8`;
}

export function compileSql(node: Num, names: SqlNames): string {
  const n = (x: Num) => compileSql(x, names);
  switch (node.op) {
    case 'const':
      return sqlNumber(node.value);
    case 'var':
      return names(node.name);
    case 'add':
      return `(${n(node.a)} + ${n(node.b)})`;
    case 'sub':
      return `(${n(node.a)} - ${n(node.b)})`;
    case 'mul':
      return `(${n(node.a)} * ${n(node.b)})`;
    case 'div':
      return `(${n(node.a)} / ${n(node.b)})`;
    case 'max':
      return `greatest(${n(node.a)}, ${n(node.b)})`;
    case 'min':
      return `least(${n(node.a)}, ${n(node.b)})`;
    case 'sin':
      return `sin(${n(node.a)})`;
    case 'exp':
      return `exp(greatest(${n(node.a)}, ${sqlNumber(EXP_FLOOR)}))`;
    case 'floor':
      return `floor(${n(node.a)})`;
    case 'if':
      return `(case when ${compileSqlBool(node.cond, names)} then ${n(node.then)} else ${n(node.else)} end)`;
  }
}

export function compileSqlBool(node: Bool, names: SqlNames): string {
  switch (node.op) {
    case 'lt':
      return `(${compileSql(node.a, names)} < ${compileSql(node.b, names)})`;
    case 'le':
      return `(${compileSql(node.a, names)} <= ${compileSql(node.b, names)})`;
    case 'eq':
      return `(${compileSql(node.a, names)} = ${compileSql(node.b, names)})`;
    case 'and':
      return `(${compileSqlBool(node.a, names)} and ${compileSqlBool(node.b, names)})`;
  }
}

/** A compiled expression: reads its variables from a vector, by the indices given at compile time. */
export type CompiledNum = (values: Float64Array) => number;
export type CompiledBool = (values: Float64Array) => boolean;

/**
 * Compiles a tree into nested closures, the same operations in the same order as `evaluate`
 * (so the same doubles), but some fifty times faster: variables become vector indices.
 */
export function compileJs(node: Num, index: (name: string) => number): CompiledNum {
  const n = (x: Num) => compileJs(x, index);
  switch (node.op) {
    case 'const': {
      const value = node.value;
      return () => value;
    }
    case 'var': {
      const i = index(node.name);
      return (values) => values[i];
    }
    case 'add': {
      const [a, b] = [n(node.a), n(node.b)];
      return (values) => a(values) + b(values);
    }
    case 'sub': {
      const [a, b] = [n(node.a), n(node.b)];
      return (values) => a(values) - b(values);
    }
    case 'mul': {
      const [a, b] = [n(node.a), n(node.b)];
      return (values) => a(values) * b(values);
    }
    case 'div': {
      const [a, b] = [n(node.a), n(node.b)];
      return (values) => a(values) / b(values);
    }
    case 'max': {
      const [a, b] = [n(node.a), n(node.b)];
      return (values) => Math.max(a(values), b(values));
    }
    case 'min': {
      const [a, b] = [n(node.a), n(node.b)];
      return (values) => Math.min(a(values), b(values));
    }
    case 'sin': {
      const a = n(node.a);
      return (values) => Math.sin(a(values));
    }
    case 'exp': {
      const a = n(node.a);
      return (values) => Math.exp(Math.max(a(values), EXP_FLOOR));
    }
    case 'floor': {
      const a = n(node.a);
      return (values) => Math.floor(a(values));
    }
    case 'if': {
      const [cond, then, otherwise] = [compileJsBool(node.cond, index), n(node.then), n(node.else)];
      return (values) => (cond(values) ? then(values) : otherwise(values));
    }
  }
}

export function compileJsBool(node: Bool, index: (name: string) => number): CompiledBool {
  switch (node.op) {
    case 'lt': {
      const [a, b] = [compileJs(node.a, index), compileJs(node.b, index)];
      return (values) => a(values) < b(values);
    }
    case 'le': {
      const [a, b] = [compileJs(node.a, index), compileJs(node.b, index)];
      return (values) => a(values) <= b(values);
    }
    case 'eq': {
      const [a, b] = [compileJs(node.a, index), compileJs(node.b, index)];
      return (values) => a(values) === b(values);
    }
    case 'and': {
      const [a, b] = [compileJsBool(node.a, index), compileJsBool(node.b, index)];
      return (values) => a(values) && b(values);
    }
  }
}
