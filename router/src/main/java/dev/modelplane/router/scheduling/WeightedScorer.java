package dev.modelplane.router.scheduling;

/** A scorer with its weight in one profile. Weights are not normalised (GIE). */
public record WeightedScorer(Scorer scorer, double weight) {
}
