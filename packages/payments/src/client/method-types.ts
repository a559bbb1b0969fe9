import type { operations } from '../generated/openapi.js';
import type { OperationSpec } from '../generated/operations.js';
import type { ApiResult } from './api-result.js';
import type { HeadersOption } from './core.js';
import type { Page } from './page.js';

/**
 * Types of the generated methods, computed from the operation table (names, argument order, media types) and from
 * openapi-typescript's `operations` (parameter, body and answer types). Nothing here names an operation.
 */

export type OperationTable = Readonly<Record<string, OperationSpec>>;

type Op<Id> = Id extends keyof operations ? operations[Id] : never;
type Params<Id> = Op<Id> extends { parameters: infer P } ? P : Record<string, never>;
type PathParams<Id> = Params<Id> extends { path: infer P } ? P : Record<string, never>;
type QueryOf<Id> = Params<Id> extends { query?: infer Q } ? Q : undefined;
type RequiredKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? never : K }[keyof T];

/**
 * The positional path arguments, in path order. Built element by element rather than as a mapped tuple: TypeScript
 * before 5.4 does not take a mapped tuple for an array type in a rest position (TS2574).
 */
type PathArgs<Id, Names extends readonly string[]> = Names extends readonly [infer Name, ...infer Rest extends readonly string[]]
  ? [Name extends keyof PathParams<Id> ? PathParams<Id>[Name] : string, ...PathArgs<Id, Rest>]
  : [];

export type RequestBody<Id, MediaType> =
  NonNullable<Op<Id> extends { requestBody?: infer B } ? B : never> extends { content: infer C }
    ? MediaType extends keyof C
      ? C[MediaType]
      : never
    : never;

type QueryOption<Id> = [QueryOf<Id>] extends [undefined]
  ? { query?: never }
  : [RequiredKeys<NonNullable<QueryOf<Id>>>] extends [never]
    ? { query?: NonNullable<QueryOf<Id>> }
    : { query: NonNullable<QueryOf<Id>> };

export type CallOptions<Id, S extends OperationSpec, A> = QueryOption<Id> & {
  /** Stops the call, retries and waits included. */
  signal?: AbortSignal;
  /** Media type to ask for, among those the operation answers with. */
  accept?: A;
  /**
   * Extra request headers (the client's own headers, such as Authorization, always win). On a POST, an
   * `Idempotency-Key` here is the call's key, as if given as `idempotencyKey`; the two must then agree.
   */
  headers?: HeadersOption;
} & (S['idempotent'] extends true
    ? {
        /** Reuse a key to resend a request safely; by default a new UUID is made per call. */
        idempotencyKey?: string;
      }
    : { idempotencyKey?: never });

type OptionsArg<Id, S extends OperationSpec, A> = [RequiredKeys<CallOptions<Id, S, A>>] extends [never]
  ? [options?: CallOptions<Id, S, A>]
  : [options: CallOptions<Id, S, A>];

type BodyArg<Id, S extends OperationSpec> = S['body'] extends string
  ? S['bodyRequired'] extends true
    ? [body: RequestBody<Id, S['body']>]
    : OptionsArg<Id, S, never> extends [options?: unknown]
      ? [body?: RequestBody<Id, S['body']>]
      : [body: RequestBody<Id, S['body']> | undefined]
  : [];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;
type Responses<Id> = Op<Id> extends { responses: infer R } ? R : never;
type ContentOf<R, A> = R extends { content: infer C } ? (A extends keyof C ? C[A] : never) : undefined;

/** The body of any success answer, for the media type asked. */
export type SuccessData<Id, A> = {
  [K in keyof Responses<Id>]: K extends SuccessStatus ? ContentOf<Responses<Id>[K], A> : never;
}[keyof Responses<Id>];

type ListItem<Id, A> = SuccessData<Id, A> extends { data?: (infer T)[] } ? T : unknown;

export type MethodResult<Id, S extends OperationSpec, A> = S['list'] extends true
  ? A extends 'application/json'
    ? Page<ListItem<Id, A>, SuccessData<Id, A>>
    : ApiResult<SuccessData<Id, A>>
  : ApiResult<SuccessData<Id, A>>;

export type OperationMethod<Id, S extends OperationSpec> = <A extends S['accept'][number] = S['accept'][0]>(
  ...args: [...PathArgs<Id, S['pathParams']>, ...BodyArg<Id, S>, ...OptionsArg<Id, S, A>]
) => Promise<MethodResult<Id, S, A>>;

/** `{ group: { method } }` for every operation of a table. */
export type GroupedMethods<T extends OperationTable> = {
  [G in T[keyof T]['group']]: {
    [Id in keyof T as T[Id]['group'] extends G ? T[Id]['name'] : never]: OperationMethod<Id, T[Id]>;
  };
};
