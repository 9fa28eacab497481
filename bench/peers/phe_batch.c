/* Batch entry points over PokerHandEvaluator (https://github.com/HenryRLee/PokerHandEvaluator,
 * Apache-2.0), for bench/evaluator.py --peers: the peer's C sources come from its PyPI source
 * distribution (phevaluator), built there, never copied here. Cards are 0..51 = 4 * rank + suit
 * (rank 0 the deuce), as ours; a smaller result is a better hand. */
#include "phevaluator/phevaluator.h"

void phe_eval7(const unsigned char* cards, long n, unsigned short* out) {
    for (long i = 0; i < n; ++i) {
        const unsigned char* c = cards + 7 * i;
        out[i] = (unsigned short)evaluate_7cards(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }
}

/* Omaha high: rows of nine cards, the five board cards first, then the four hole cards. */
void phe_eval_plo4(const unsigned char* cards, long n, unsigned short* out) {
    for (long i = 0; i < n; ++i) {
        const unsigned char* c = cards + 9 * i;
        out[i] = (unsigned short)evaluate_plo4_cards(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    }
}
