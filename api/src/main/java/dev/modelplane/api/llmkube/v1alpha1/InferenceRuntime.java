package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The model server an InferenceService runs. */
public enum InferenceRuntime {
  /** llama.cpp's {@code llama-server}, with arguments built from the typed fields (the default). */
  @JsonProperty("llamacpp") LLAMACPP,
  /**
   * llama.cpp's {@code llama-server} in router mode, loading models on demand from {@code /models} (which the user
   * mounts with {@code extraVolumes}); no GPU flags and no init container.
   */
  @JsonProperty("llamacpp-router") LLAMACPP_ROUTER,
  /** The PersonaPlex (Moshi) speech-to-speech server; needs {@code image}. */
  @JsonProperty("personaplex") PERSONAPLEX,
  /** The vLLM OpenAI-compatible server, tuned through {@code vllmConfig}. */
  @JsonProperty("vllm") VLLM,
  /** Hugging Face Text Generation Inference, tuned through {@code tgiConfig}. */
  @JsonProperty("tgi") TGI,
  /** The SGLang OpenAI-compatible server, tuned through {@code sglangConfig}. */
  @JsonProperty("sglang") SGLANG,
  /** Any container: {@code image} (required), {@code command}, {@code args} and {@code env} are used as given. */
  @JsonProperty("generic") GENERIC
}
