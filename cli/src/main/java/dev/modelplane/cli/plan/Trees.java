package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Editing a manifest's YAML tree in place. */
final class Trees {
  private Trees() {
  }

  /** The object under {@code field} of {@code parent}, made (or made an object) when it is not one. */
  static ObjectNode child(ObjectNode parent, String field) {
    return parent.get(field) instanceof ObjectNode o ? o : parent.putObject(field);
  }
}
