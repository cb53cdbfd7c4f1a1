// Types for the vendored Preact 10 and htm 3 (src/laizi/server/static/vendor), the part
// of their API the client uses, so `tsc -p jsconfig.json` checks the client's calls.

declare module "preact" {
  export type ComponentChild = VNode | string | number | boolean | null | undefined | ComponentChild[];
  export interface VNode<P = any> {
    type: any;
    props: P;
    key?: string | number;
  }
  export type ComponentChildren = ComponentChild | ComponentChild[];
  export function render(vnode: ComponentChild, parent: Element | DocumentFragment): void;
  export function h(type: any, props: Record<string, any> | null, ...children: ComponentChildren[]): VNode;
}

declare module "preact/hooks" {
  type StateUpdater<S> = (value: S | ((prev: S) => S)) => void;
  type Inputs = ReadonlyArray<unknown>;
  export function useState<S>(initial: S | (() => S)): [S, StateUpdater<S>];
  export function useState<S = undefined>(): [S | undefined, StateUpdater<S | undefined>];
  export function useEffect(effect: () => void | (() => void), inputs?: Inputs): void;
  export function useLayoutEffect(effect: () => void | (() => void), inputs?: Inputs): void;
  export function useRef<T>(initial: T): { current: T };
  export function useRef<T = undefined>(): { current: T | undefined };
  export function useMemo<T>(factory: () => T, inputs: Inputs | undefined): T;
  export function useCallback<T extends (...args: any[]) => any>(callback: T, inputs: Inputs): T;
}

declare module "htm/preact" {
  import type { VNode } from "preact";
  export function html(strings: TemplateStringsArray, ...values: any[]): VNode | VNode[];
  export { render, h } from "preact";
}
