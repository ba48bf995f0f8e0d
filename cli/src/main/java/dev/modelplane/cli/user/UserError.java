package dev.modelplane.cli.user;

/**
 * A mistake in what the user gave (a manifest, a name, a flag): the CLI prints its message as one line
 * ({@code error: <message>}) and exits 1; the stack trace only with {@code --debug}.
 */
public final class UserError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error whose message is the whole line after {@code error: }. */
  public UserError(String message) {
    super(message);
  }

  /** As {@link #UserError(String)}, keeping what caused it for {@code --debug}. */
  public UserError(String message, Throwable cause) {
    super(message, cause);
  }
}
