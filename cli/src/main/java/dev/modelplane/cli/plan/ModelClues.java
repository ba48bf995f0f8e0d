package dev.modelplane.cli.plan;

import dev.modelplane.cli.plan.ManifestInput.Document;
import dev.modelplane.simulator.physics.ModelCatalog;
import dev.modelplane.simulator.physics.ModelGeometry;
import java.util.ArrayList;
import java.util.List;

/**
 * The built-in geometry a manifest's model is, from what names it (a source URI, a repository, a name), since the
 * model's config.json is not at hand offline.
 */
final class ModelClues {
  /**
   * One thing that names the model.
   *
   * @param doc the document it is in
   * @param field its path ({@code spec.source})
   * @param value what it says (null or blank when the field is absent)
   */
  record Clue(Document doc, String field, String value) {
  }

  private final List<Clue> clues = new ArrayList<>();

  /** Adds a clue; an absent document or blank value is skipped. */
  ModelClues add(Document doc, String field, String value) {
    if (doc != null && value != null && !value.isBlank()) {
      clues.add(new Clue(doc, field, value));
    }
    return this;
  }

  /**
   * The geometry the first telling clue names.
   *
   * @param fallback the document to name when there is no clue at all
   * @throws dev.modelplane.cli.user.UserError naming the first clue's field and line, and {@code --model-config}
   */
  ModelGeometry geometry(ManifestInput in, Document fallback) {
    for (Clue c : clues) {
      ModelGeometry g = ModelCatalog.guess(c.value());
      if (g != null) {
        return g;
      }
    }
    if (clues.isEmpty()) {
      throw in.error(fallback, "spec", "nothing names the model; give --model-config FILE (its config.json)");
    }
    Clue first = clues.getFirst();
    throw in.error(first.doc(), first.field(), first.field() + ": no built-in model geometry matches \""
        + first.value() + "\" (built in: " + ModelCatalog.geometryNames() + "); give --model-config FILE (the "
        + "model's config.json)");
  }
}
