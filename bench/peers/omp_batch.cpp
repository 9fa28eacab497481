// A batch entry point over OMPEval's HandEvaluator (https://github.com/zekyll/OMPEval, ISC
// licence), for bench/evaluator.py --peers: the peer's own code is built from its source tree
// there, never copied here. Cards are 0..51 = 4 * rank + suit (rank 0 the deuce), as ours.
#include "omp/HandEvaluator.h"

extern "C" void omp_eval7(const unsigned char* cards, long n, unsigned short* out) {
    static omp::HandEvaluator evaluator;  // builds its tables once
    for (long i = 0; i < n; ++i) {
        const unsigned char* c = cards + 7 * i;
        omp::Hand hand = omp::Hand::empty() + omp::Hand(c[0]) + omp::Hand(c[1]) + omp::Hand(c[2]) + omp::Hand(c[3])
                         + omp::Hand(c[4]) + omp::Hand(c[5]) + omp::Hand(c[6]);
        out[i] = evaluator.evaluate(hand);
    }
}
