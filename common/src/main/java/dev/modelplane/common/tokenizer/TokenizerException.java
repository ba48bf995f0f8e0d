package dev.modelplane.common.tokenizer;

/** A tokenizer that cannot be loaded or used; the message names the file and says what is wrong with it. */
public class TokenizerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TokenizerException(String message) {
    super(message);
  }

  public TokenizerException(String message, Throwable cause) {
    super(message, cause);
  }
}
