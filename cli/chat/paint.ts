/**
 * hel's styling of the chat, switched off as a whole: with colour off (NO_COLOR, TERM=dumb)
 * a component draws no colour, dimming or bold at all, so its text reaches the terminal with
 * no escape sequence of hel's either.
 *
 * @module
 */
import type { TextProps } from "ink";

/** The styling props of Ink's `<Text>`. */
export type TextStyle = Pick<
  TextProps,
  "color" | "backgroundColor" | "dimColor" | "bold" | "italic" | "underline" | "inverse"
>;

/** `style` when colour is on, no styling when it is off. */
export function paint(color: boolean, style: TextStyle): TextStyle {
  return color ? style : {};
}
