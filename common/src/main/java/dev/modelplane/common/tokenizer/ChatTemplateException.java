package dev.modelplane.common.tokenizer;

/**
 * Chat messages that the model's chat template cannot turn into a prompt: there is no template, the template raised
 * (for example on roles that do not alternate) or it does not render. A model server answers such a request with
 * 400, and so should whoever renders on its behalf.
 */
public final class ChatTemplateException extends TokenizerException {
  private static final long serialVersionUID = 1L;

  public ChatTemplateException(String message) {
    super(message);
  }

  public ChatTemplateException(String message, Throwable cause) {
    super(message, cause);
  }
}
