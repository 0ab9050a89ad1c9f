/** A tiny element builder: `h('button', { onclick }, 'text')`. */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | ((event: never) => void) | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value as EventListener);
    else if (name === 'className') element.className = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

export function clear(element: Element): void {
  while (element.firstChild) element.firstChild.remove();
}

/** Replaces an element's children, skipping empty ones (null, undefined, false). */
export function fill(element: Element, ...children: (Child | Child[])[]): void {
  element.replaceChildren(...children.flat().filter((child): child is Node | string | number => child !== null && child !== undefined && child !== false).map((child) => (child instanceof Node ? child : String(child))));
}
