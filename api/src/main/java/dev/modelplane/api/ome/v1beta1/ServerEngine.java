package dev.modelplane.api.ome.v1beta1;

/** Model-server software behind a benchmarked endpoint, recorded with the results. */
public enum ServerEngine {
  /** vLLM. */
  vLLM,
  /** SGLang. */
  SGLang,
  /** Hugging Face Text Generation Inference. */
  TGI
}
