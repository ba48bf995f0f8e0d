package dev.modelplane.common.kvevents;

import java.io.IOException;

/** A published message that is not a KV-cache event batch; the message says where it went wrong. */
public final class MalformedEventException extends IOException {
  public MalformedEventException(String message) {
    super(message);
  }

  MalformedEventException(String message, Throwable cause) {
    super(message, cause);
  }
}
