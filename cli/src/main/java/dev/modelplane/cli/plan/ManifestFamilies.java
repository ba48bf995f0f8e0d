package dev.modelplane.cli.plan;

import dev.modelplane.cli.plan.ManifestInput.Document;
import dev.modelplane.cli.user.UserError;
import java.nio.file.Path;

/** Which family of manifest a file is, by its first serving object (else its first model object). */
final class ManifestFamilies {
  private ManifestFamilies() {
  }

  static PlanModel model(ManifestInput in, Path file) {
    Document first = in.documents().stream().filter(ManifestFamilies::serves).findFirst()
        .or(() -> in.documents().stream().filter(ManifestFamilies::isModel).findFirst())
        .orElseThrow(() -> new UserError(in.file() + ": no model to plan: the file holds no LLMKube Model or "
            + "InferenceService, OME BaseModel, ClusterBaseModel or InferenceService, or OtterScale ModelService"));
    return switch (first.apiVersion()) {
      case ManifestInput.LLMKUBE -> LlmkubeManifest.model(in, file);
      case ManifestInput.OME -> OmeManifest.model(in, file);
      default -> OtterscaleManifest.model(in, file);
    };
  }

  static boolean serves(Document d) {
    return d.is(ManifestInput.LLMKUBE, "InferenceService") || d.is(ManifestInput.OME, "InferenceService")
        || d.is(ManifestInput.OTTERSCALE, "ModelService");
  }

  private static boolean isModel(Document d) {
    return d.is(ManifestInput.LLMKUBE, "Model") || d.is(ManifestInput.OME, "BaseModel", "ClusterBaseModel");
  }
}
