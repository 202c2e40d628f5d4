// The ambiguity sentence comparison text and Markdown share (comparison_figures.h): which other
// stages fit a pair as well, and the --pin that settles each.
#include "report/comparison_figures.h"

#include <gtest/gtest.h>

namespace sf::report {
namespace {

compare::StagePair pair_of(int64_t base, int64_t cand) {
  compare::StagePair pair;
  pair.base_stage_id = base;
  pair.cand_stage_id = cand;
  pair.method = compare::PairMethod::kAligned;
  pair.score = 0.72;
  return pair;
}

TEST(AmbiguityFigure, APairOnlyOneStageFitsSaysNothing) {
  const compare::StagePair pair = pair_of(3, 5);
  EXPECT_EQ(ambiguity_figure(pair), "");
  EXPECT_EQ(pair_method_figure(pair), "aligned 0.72");
}

TEST(AmbiguityFigure, OneRivalNamesItsPin) {
  compare::StagePair pair = pair_of(3, 5);
  pair.ambiguous_cand_stage_ids = {6};
  EXPECT_EQ(ambiguity_figure(pair),
            "stage 3 -> 5: candidate stage 6 fits as well by place in the job and bytes read (--pin 3:6 takes it)");
  EXPECT_EQ(pair_method_figure(pair), "aligned 0.72, ambiguous");
}

TEST(AmbiguityFigure, RivalsOnBothSidesNameEveryPin) {
  compare::StagePair pair = pair_of(3, 5);
  pair.ambiguous_cand_stage_ids = {6, 7};
  pair.ambiguous_base_stage_ids = {4};
  EXPECT_EQ(ambiguity_figure(pair),
            "stage 3 -> 5: candidate stages 6, 7 and baseline stage 4 fit as well by place in the job and bytes read "
            "(--pin 3:6 or --pin 3:7 or --pin 4:5 takes one)");
}

}  // namespace
}  // namespace sf::report
