package dev.modelplane.operator.common;

/**
 * Something wrong with a resource's spec that the schema cannot catch. It becomes a condition (Degraded, or Failed
 * when {@code fatal}) whose message starts with the field, and a Warning Event; it never becomes an exception.
 *
 * @param field path of the offending field, e.g. {@code spec.vllmConfig.speculative.model}
 * @param reason CamelCase reason for the condition and the Event
 * @param message what is wrong and what happens now, without the field
 * @param fatal the resource cannot be served as written
 */
public record FieldProblem(String field, String reason, String message, boolean fatal) {

  public static FieldProblem warning(String field, String reason, String message) {
    return new FieldProblem(field, reason, message, false);
  }

  public static FieldProblem fatal(String field, String reason, String message) {
    return new FieldProblem(field, reason, message, true);
  }

  /** {@code field: message}, the form used in conditions and Events; just the message without a field. */
  public String describe() {
    return field == null || field.isEmpty() ? message : field + ": " + message;
  }
}
