//! Kuramoto–Sivashinsky, 1D periodic: `u_t = −u u_x − u_xx − u_xxxx` (PAPER.md, section KS).
