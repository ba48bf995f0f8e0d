package dev.modelplane.operator.modelsource;

import java.util.List;
import java.util.Locale;

/**
 * The capabilities OME derives from a model's type and architecture, first rule that applies: diffusion pipelines
 * by class name; Nemotron-H Nano; vision models; omni models; speech recognition; embedding models; else text
 * generation. The values are OME's {@code ModelCapability} names.
 */
final class ModelMetadataCapabilities {
  static final String TEXT_TO_TEXT = "TEXT_TO_TEXT";
  static final String IMAGE_TEXT_TO_TEXT = "IMAGE_TEXT_TO_TEXT";
  static final String EMBEDDING = "EMBEDDING";
  static final String AUDIO_TO_TEXT = "AUDIO_TO_TEXT";
  static final String TEXT_TO_IMAGE = "TEXT_TO_IMAGE";

  private ModelMetadataCapabilities() {
  }

  /**
   * Capabilities of a diffusers pipeline from its class name. OME falls through to "vision" (IMAGE_TEXT_TO_TEXT)
   * for a class name without a known word, e.g. {@code FluxPipeline}; a pipeline generates, so text-to-image is
   * used instead.
   */
  static List<String> ofPipeline(String className) {
    String name = className.toLowerCase(Locale.ROOT);
    if (containsAny(name, "imageedit", "pix2pix", "img2img", "inpaint")) {
      return List.of("IMAGE_TEXT_TO_IMAGE");
    }
    if (containsAny(name, "image", "pix", "stablediffusion")) {
      return List.of(TEXT_TO_IMAGE);
    }
    if (containsAny(name, "texttovideo", "t2v")) {
      return List.of("TEXT_TO_VIDEO");
    }
    if (name.contains("video")) {
      return List.of("IMAGE_TEXT_TO_VIDEO");
    }
    return List.of(TEXT_TO_IMAGE);
  }

  /**
   * Capabilities of a transformers model.
   *
   * @param embedding whether the files mark it as an embedding model (a BERT config, or a sentence-transformers
   *     configuration with a similarity function)
   */
  static List<String> ofModel(String modelType, String architecture, boolean vision, boolean embedding) {
    String type = modelType.toLowerCase(Locale.ROOT);
    String arch = architecture.toLowerCase(Locale.ROOT);
    if (type.contains("nemotronh_nano")) {
      return List.of(IMAGE_TEXT_TO_TEXT, TEXT_TO_TEXT, AUDIO_TO_TEXT);
    }
    if (vision) {
      return List.of(IMAGE_TEXT_TO_TEXT);
    }
    if (arch.contains("omni")) {
      return List.of("TEXT_TO_AUDIO", "IMAGE_TEXT_TO_AUDIO", "VIDEO_TEXT_TO_AUDIO", AUDIO_TO_TEXT, "AUDIO_TO_AUDIO");
    }
    if (containsAny(arch, "whisper", "wav2vec2", "hubert", "fortc", "forspeechtotext")) {
      return List.of(AUDIO_TO_TEXT);
    }
    if (embedding || containsAny(arch, "embedding", "sentence") || type.contains("bert")
        || type.contains("mistral") && arch.contains("mistralmodel")) {
      return List.of(EMBEDDING);
    }
    return List.of(TEXT_TO_TEXT);
  }

  private static boolean containsAny(String value, String... words) {
    for (String word : words) {
      if (value.contains(word)) {
        return true;
      }
    }
    return false;
  }
}
