"""laizi: regional Chinese mahjong.

荆州麻将 (红中赖子杠), 荆州晃晃, 黄金麻将, 台湾十六张 and Chinese Official (MCR).
"""

__version__ = "0.1.0"
